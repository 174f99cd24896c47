package io.millrace.consumer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/**
 * A consumer whose ZooKeeper session expires (LOST) stops delivering, and once reconnected
 * registers again, takes its partitions back and goes on. The group's registries live in a
 * ZooKeeper of their own here, apart from the brokers' (as with brokers that keep no registry in it).
 */
public class SessionExpiryTest {

    @Test
    public void aConsumerWhoseSessionExpiredRegistersAgainAndGoesOn() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(1, Map.of());
             EmbeddedZooKeeper registries = new EmbeddedZooKeeper().start();
             GroupTestSupport support = new GroupTestSupport(cluster);
             TestProducer producer = new TestProducer(cluster.bootstrapServers())) {
            cluster.createTopic("expiring", 2);
            Map<String, Object> settings = support.settings("g-expiring");
            settings.put("zookeeper.connect", registries.connectString());
            GroupConsumer<String, String> consumer = support.consumer(settings);
            StreamCollector reads = support.subscribe(consumer, "expiring");
            List<String> sent = new ArrayList<>(producer.produce("expiring", 2, 10, "before"));
            Conditions.waitUntil(() -> reads.count() >= sent.size(), 20_000, "the first messages");
            long session = consumer.zooKeeperClient().getZookeeperClient().getZooKeeper().getSessionId();

            registries.expireSession(consumer.zooKeeperClient().getZookeeperClient().getZooKeeper());
            Conditions.waitUntil(() -> sessionId(consumer) != session && consumer.ownedPartitions().size() == 2, 60_000,
                "a new session that owns the partitions again");
            try (GroupOffsets offsets = new GroupOffsets(new io.millrace.consumer.ConsumerConfig(settings))) {
                // the partitions may be counted before the LOST event's clean-up and re-registration have run
                Conditions.waitUntil(() -> offsets.members("g-expiring").size() == 1
                    && consumer.ownedPartitions().size() == 2, 60_000, "registered again, owning both partitions");
                assertEquals("registered again", 1, offsets.members("g-expiring").size());
            }
            sent.addAll(producer.produce("expiring", 2, 10, "after"));
            Conditions.waitUntil(() -> new HashSet<>(reads.values()).containsAll(sent), 60_000, "the later messages");
            assertTrue(reads.count() >= sent.size());
        }
    }

    /**
     * While ZooKeeper is unreachable the server may expire the session, and another member may own the
     * partitions, before the client hears of it: a third of a session timeout into a suspension the
     * consumer stops delivering on its own; back within the session, it takes its partitions again and
     * loses nothing.
     */
    @Test
    public void aConsumerCutOffFromZooKeeperStopsDeliveringWithinAThirdOfItsSessionAndResumesAfter() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(1, Map.of());
             EmbeddedZooKeeper registries = new EmbeddedZooKeeper().start();
             GroupTestSupport support = new GroupTestSupport(cluster);
             TestProducer producer = new TestProducer(cluster.bootstrapServers())) {
            cluster.createTopic("suspended", 2);
            Map<String, Object> settings = support.settings("g-suspended");
            settings.put("zookeeper.connect", registries.connectString());
            settings.put(ConsumerConfig.ZOOKEEPER_SESSION_TIMEOUT_MS_CONFIG, 9000);   // delivery bound: 3 s
            GroupConsumer<String, String> consumer = support.consumer(settings);
            StreamCollector reads = support.subscribe(consumer, "suspended");
            List<String> sent = new ArrayList<>(producer.produce("suspended", 2, 10, "before"));
            Conditions.waitUntil(() -> reads.count() >= sent.size(), 20_000, "the first messages");

            long stoppedAt = System.nanoTime();
            registries.stop();
            Conditions.waitUntil(() -> consumer.ownedPartitions().isEmpty(), 20_000, "delivery to stop");
            long stoppedAfterMs = (System.nanoTime() - stoppedAt) / 1_000_000;
            // Curator reports LOST only after a whole session timeout (9 s); the bound is a third of it.
            assertTrue("stopped after " + stoppedAfterMs + " ms, bound 3000 ms (+ detection)", stoppedAfterMs < 6_000);

            registries.restart();
            Conditions.waitUntil(() -> consumer.ownedPartitions().size() == 2, 60_000, "the partitions owned again");
            sent.addAll(producer.produce("suspended", 2, 10, "after"));
            Conditions.waitUntil(() -> new HashSet<>(reads.values()).containsAll(sent), 60_000, "every message");
        }
    }

    /**
     * ZooKeeper goes away just as the consumer commits the partitions it gives up, and comes back ten
     * seconds later, well within the session (45 s) but after the ZooKeeper client's own retries gave up
     * (about 8 s at most with a 300 ms connection timeout): the release commit keeps trying, for up to a
     * third of the session, and lands, instead of failing and handing the next owner an older offset.
     */
    @Test
    public void theReleaseCommitOutlastsAShortZooKeeperOutage() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(1, Map.of());
             EmbeddedZooKeeper registries = new EmbeddedZooKeeper().start();
             GroupTestSupport support = new GroupTestSupport(cluster);
             TestProducer producer = new TestProducer(cluster.bootstrapServers())) {
            cluster.createTopic("outage", 1);
            List<String> sent = producer.produce("outage", 1, 10, "o");
            Map<String, Object> settings = support.settings("g-outage");
            settings.put("zookeeper.connect", registries.connectString());
            settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
            settings.put(ConsumerConfig.ZOOKEEPER_SESSION_TIMEOUT_MS_CONFIG, 45_000);   // the retries' bound: 15 s
            settings.put(ConsumerConfig.ZOOKEEPER_CONNECTION_TIMEOUT_MS_CONFIG, 300);
            GroupConsumer<String, String> consumer = support.consumer(settings);
            consumer.setRebalanceListener(new RebalanceListener() {
                @Override
                public boolean beforeCommit(java.util.Set<io.millrace.common.TopicPartition> partitions) {
                    try {
                        registries.stop();
                    } catch (java.io.IOException e) {
                        throw new IllegalStateException(e);
                    }
                    Thread restart = new Thread(() -> {
                        try {
                            Thread.sleep(10_000);
                            registries.restart();
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    });
                    restart.start();
                    return true;
                }
            });
            java.util.Iterator<ConsumerRecord<String, String>> stream =
                consumer.createMessageStreams(Map.of("outage", 1)).get("outage").get(0).iterator();
            for (int i = 0; i < 7; i++) {
                assertEquals(sent.get(i), stream.next().value());
            }
            stream.hasNext();   // the seventh is processed
            consumer.close();
            try (GroupOffsets offsets = new GroupOffsets(new ConsumerConfig(settings))) {
                long committed = offsets.describe("g-outage").stream().filter(row -> row.topic().equals("outage"))
                    .mapToLong(GroupOffsets.PartitionLag::committedOffset).findFirst().orElse(-1);
                assertEquals("the release commit landed after the outage", 7, committed);
            }
        }
    }

    private static long sessionId(GroupConsumer<String, String> consumer) {
        try {
            return consumer.zooKeeperClient().getZookeeperClient().getZooKeeper().getSessionId();
        } catch (Exception e) {
            return -1;
        }
    }
}
