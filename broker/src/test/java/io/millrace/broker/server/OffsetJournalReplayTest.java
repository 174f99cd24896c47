package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import io.millrace.broker.group.GroupConfig;
import io.millrace.broker.group.OffsetsTopic;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.zookeeper.KeeperException;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * A commit is answered once it is in the replicated offsets topic, before the offset registry has
 * it; when its coordinator goes, the broker taking over the group's partition replays the commit
 * into the registry, so neither the group nor the tools reading ZooKeeper lose it.
 */
public class OffsetJournalReplayTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 2, Map.of(
        GroupConfig.OFFSETS_REGISTRY_WRITE_INTERVAL_MS_CONFIG, 3_600_000,
        GroupConfig.OFFSETS_TOPIC_NUM_PARTITIONS_CONFIG, 3));

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    private static final String GROUP = "replayed";
    private static final String TOPIC = "events";

    @Test(timeout = 90_000)
    public void aCommitOnlyInTheOffsetsTopicReachesTheRegistryThroughTheNextLeader() throws Exception {
        CLUSTER.createTopic(TOPIC, 2, Map.of());
        int coordinator = CLUSTER.broker(0).groupCoordinator().findCoordinator(GROUP, 10_000);
        int survivor = 1 - coordinator;
        assertEquals(2, CLUSTER.broker(0).cluster().metadata().snapshot()
            .partitionState(OffsetsTopic.NAME, OffsetsTopic.partitionFor(GROUP, 3)).orElseThrow().replicas().size());
        TopicPartition tp = new TopicPartition(TOPIC, 1);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(coordinator)) {
            consumer.assign(List.of(tp));
            consumer.commitSync(Map.of(tp, new OffsetAndMetadata(17, "checkpoint")));
            // answered from the offsets topic; the registry gets it only at the next write, an hour away
            assertNull(registryOffset(survivor, tp));
            assertEquals(1L, unwrittenCommits(coordinator));
            assertEquals(new OffsetAndMetadata(17, "checkpoint"), consumer.committed(Set.of(tp)).get(tp));
        }

        CLUSTER.stop(coordinator);
        Conditions.waitUntil(() -> "17".equals(registryOffset(survivor, tp)), 30_000, "the new leader writing the replayed commit");
        try (KafkaConsumer<byte[], byte[]> fresh = consumer(survivor)) {
            assertEquals(new OffsetAndMetadata(17, "checkpoint"), fresh.committed(Set.of(tp)).get(tp));
        }
    }

    private static KafkaConsumer<byte[], byte[]> consumer(int broker) {
        Properties props = CLUSTER.clientProps();
        props.put("bootstrap.servers", "127.0.0.1:" + CLUSTER.broker(broker).boundPort());
        props.put("group.id", GROUP);
        props.put("enable.auto.commit", "false");
        props.put("reconnect.backoff.max.ms", "200");
        return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static long unwrittenCommits(int broker) throws Exception {
        return (Long) java.lang.management.ManagementFactory.getPlatformMBeanServer().getAttribute(
            new javax.management.ObjectName("io.millrace:type=group-coordinator,broker=" + broker), "unwritten-commits");
    }

    private static String registryOffset(int broker, TopicPartition tp) {
        try {
            byte[] data = CLUSTER.broker(broker).cluster().curator().getData()
                .forPath("/millrace/consumers/" + GROUP + "/offsets/" + tp.topic() + "/" + tp.partition());
            return new String(data, StandardCharsets.UTF_8);
        } catch (KeeperException.NoNodeException absent) {
            return null;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
