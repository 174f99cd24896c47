package io.millrace.consumer;

import static org.junit.Assert.assertEquals;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.testkit.Conditions;
import java.util.List;
import java.util.Map;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/** A stream nobody reads stops only its own partitions: the other streams fed by the same broker go on. */
public class StreamBackPressureTest {

    private LocalCluster cluster;
    private GroupTestSupport support;

    @Before
    public void setUp() throws Exception {
        cluster = LocalCluster.start(1, Map.of());
        support = new GroupTestSupport(cluster);
    }

    @After
    public void tearDown() {
        support.close();
        cluster.close();
    }

    @Test(timeout = 60_000)
    public void anUnreadStreamDoesNotStallAnotherStreamOnTheSameBroker() throws Exception {
        cluster.createTopic("unread", 2);
        cluster.createTopic("read", 1);
        try (TestProducer producer = new TestProducer(cluster.bootstrapServers())) {
            // Both partitions of the unread topic have data before the first fetch, so that one response
            // brings a chunk of each for a stream whose queue takes one.
            producer.produce("unread", 2, 200, "u");
            Map<String, Object> settings = support.settings("g-isolated");
            settings.put(ConsumerConfig.QUEUED_MAX_MESSAGE_CHUNKS_CONFIG, 1);
            GroupConsumer<String, String> consumer = support.consumer(settings);
            Map<String, List<MessageStream<String, String>>> streams =
                consumer.createMessageStreams(Map.of("unread", 1, "read", 1));
            StreamCollector reads = new StreamCollector(streams.get("read"));
            Conditions.waitUntil(() -> streams.get("unread").get(0).queue().remainingCapacity() == 0, 20_000,
                "the unread stream's queue to fill");
            for (int round = 0; round < 5; round++) {
                List<String> sent = producer.produce("read", 1, 20, "r" + round);
                int expected = 20 * (round + 1);
                Conditions.waitUntil(() -> reads.count() >= expected, 10_000, "round " + round + " of the read stream");
                assertEquals(sent, reads.values().subList(expected - 20, expected));
            }
        }
    }
}
