package io.millrace.consumer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.testkit.Conditions;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/**
 * A rebalance that fails after claiming partitions (here: no offsets, because the leader of one
 * partition is down) gives its claims back, so the group settles once the broker returns instead of
 * leaving a partition owned by nobody who reads it.
 */
public class RebalanceFailureTest {

    private static final String TOPIC = "split";

    private LocalCluster cluster;
    private GroupTestSupport support;

    @Before
    public void setUp() throws Exception {
        cluster = LocalCluster.start(2, Map.of());
        support = new GroupTestSupport(cluster);
    }

    @After
    public void tearDown() {
        support.close();
        cluster.close();
    }

    /** A rebalance waiting for offsets from a broker that is down does not hold up a commit (or its scheduler). */
    @Test(timeout = 60_000)
    public void aCommitDuringARebalanceStuckOnOffsetsReturnsAtOnce() throws Exception {
        cluster.createTopic(TOPIC, 2);
        cluster.stopBroker(1);
        Map<String, Object> settings = support.settings("g-stuck");
        settings.put("request.timeout.ms", 8_000);
        GroupConsumer<String, String> consumer = support.consumer(settings);
        support.subscribe(consumer, TOPIC);
        Thread.sleep(1_500);   // the rebalance has claimed and now waits for the offsets of broker 1's partition
        long start = System.nanoTime();
        consumer.commit();
        long tookMs = java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue("commit() waited " + tookMs + " ms for the rebalance", tookMs < 1_000);
    }

    @Test(timeout = 120_000)
    public void aRebalanceThatCannotStartFetchingReleasesWhatItClaimed() throws Exception {
        cluster.createTopic(TOPIC, 2);
        int onSecondBroker = Files.exists(cluster.logDir(1).resolve(TOPIC + "-0")) ? 0 : 1;
        assertTrue("one partition lives on broker 1", Files.exists(cluster.logDir(1).resolve(TOPIC + "-" + onSecondBroker)));
        List<String> sent;
        try (TestProducer producer = new TestProducer(cluster.bootstrapServers())) {
            sent = producer.produce(TOPIC, 2, 5, "f");
        }
        cluster.stopBroker(1);

        Map<String, Object> settings = support.settings("g-failing");
        settings.put("request.timeout.ms", 1_000);
        settings.put(ConsumerConfig.REBALANCE_MAX_RETRIES_CONFIG, 3);
        GroupConsumer<String, String> first = support.consumer(settings);
        StreamCollector firstReads = support.subscribe(first, TOPIC);
        Thread.sleep(2_500);   // its rebalances claim both partitions, then fail: no offsets from broker 1
        GroupConsumer<String, String> second = support.consumer(settings);
        StreamCollector secondReads = support.subscribe(second, TOPIC);
        Thread.sleep(2_500);
        cluster.startBroker(1);

        Conditions.waitUntil(() -> firstReads.count() + secondReads.count() >= sent.size(), 60_000,
            "every message read by the group after broker 1 returned");
        Conditions.waitUntil(() -> GroupTestSupport.ownEachOnce(List.of(first, second), 2), 30_000,
            "each partition owned once");
        assertEquals(1, first.ownedPartitions().size());
        Set<String> read = new HashSet<>(firstReads.values());
        read.addAll(secondReads.values());
        assertEquals(new HashSet<>(sent), read);
    }
}
