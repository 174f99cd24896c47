package io.millrace.hadoop.input;

import static org.junit.Assert.assertEquals;

import io.millrace.common.TopicPartition;
import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.LoaderCluster;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/** Planning against a real broker while messages keep arriving. */
public class RangePlannerTest {

    private static LoaderCluster cluster;

    @BeforeClass
    public static void start() throws Exception {
        cluster = LoaderCluster.start(Map.of());
    }

    @AfterClass
    public static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /**
     * A partition with no message after the start time starts at its log end, the same log end the
     * range ends at, however many messages arrive while the plan is made.
     */
    @Test(timeout = 120_000)
    public void aStartTimeWithNothingAfterItPlansAnEmptyRangeWhileMessagesArrive() throws Exception {
        cluster.createTopic("arriving", 1);
        TopicPartition tp = new TopicPartition("arriving", 0);
        long afterEverything = System.currentTimeMillis() + 86_400_000L;
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Exception> producerFailure = new AtomicReference<>();
        Thread producer = new Thread(() -> {
            try {
                for (int round = 0; !stop.get(); round++) {
                    cluster.produce("arriving", 1, 20, 1, round * 20);
                }
            } catch (Exception e) {
                producerFailure.set(e);
            }
        });
        producer.start();
        try (ClusterAccess access = new ClusterAccess(new LoadConfig(cluster.loadSettings("arriving", "arriving")))) {
            RangePlanner planner = new RangePlanner(access.reader(), OptionalLong.of(afterEverything));
            for (int i = 0; i < 100; i++) {
                LoadPlan plan = planner.plan(List.of(tp), Map.of());
                PartitionRange range = plan.ranges().get(0);
                assertEquals("plan " + i + ": " + range, range.end(), range.start());
            }
        } finally {
            stop.set(true);
            producer.join();
        }
        assertEquals(null, producerFailure.get());
    }
}
