package io.millrace.consumer;

import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.TopicPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * {@link PartitionReader#readViews} reads the responses it fetches ahead into pooled direct buffers,
 * the socket reads landing straight in them, and reuses each buffer once the views have left its
 * response: every record must come out intact however often the buffers go round.
 */
public class PooledResponsesTest {

    private static final TopicPartition WIDE = new TopicPartition("wide", 0);
    private static final int COUNT = 400;
    private static LocalCluster cluster;
    private static PartitionReader reader;
    private static List<String> sent;

    @BeforeClass
    public static void start() throws Exception {
        cluster = LocalCluster.start(1, Map.of());
        cluster.createTopic("wide", 1);
        sent = new ArrayList<>();
        try (TestProducer producer = new TestProducer(cluster.bootstrapServers())) {
            for (int chunk = 0; chunk < 4; chunk++) {   // about 1 KB a value, 400 KB in all
                sent.addAll(producer.produceTo("wide", 0, COUNT / 4, String.valueOf((char) ('a' + chunk)).repeat(1000), null));
            }
        }
        // 64 KiB fetches: some seven responses a range, each large enough for reads straight into its buffer
        reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers", cluster.bootstrapServers(),
            ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50, ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 64 * 1024)));
    }

    @AfterClass
    public static void stop() {
        reader.close();
        cluster.close();
    }

    @Test
    public void everyRecordComesOutIntactWhileTheBuffersAreReused() {
        for (int pass = 0; pass < 3; pass++) {
            int pooled = readAndCheck(0, COUNT);
            assertTrue("responses fetched ahead lie in pooled direct buffers (pass " + pass + ")", pooled > 0);
            assertTrue("the buffers went back to the pool", reader.idleResponseBuffers() > 0);
        }
    }

    @Test
    public void aRangeLeftHalfReadDoesNotDisturbTheNextOne() {
        RecordViews abandoned = reader.readViews(WIDE, 0, COUNT);
        for (int i = 0; i < 150; i++) {
            assertTrue(abandoned.advance());
        }
        readAndCheck(37, COUNT);
        readAndCheck(0, 250);
    }

    private static int readAndCheck(int start, int end) {
        return ViewChecks.readAndCheck(reader, WIDE, sent, start, end);
    }
}
