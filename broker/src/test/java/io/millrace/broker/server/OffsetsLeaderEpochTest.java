package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;

import io.millrace.broker.group.OffsetsTopic;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * A broker that is neither the coordinator nor needed by it leaves: the controller takes it out of
 * the in-sync replicas of the group's offsets partition and raises that partition's leader epoch,
 * while the coordinator goes on leading it. The group stays where it is: its member keeps its id,
 * no rebalance, and commits go on.
 */
public class OffsetsLeaderEpochTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 3, Map.of());

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    private static final String GROUP = "steady";
    private static final String TOPIC = "steady-input";

    @Test(timeout = 90_000)
    public void anIsrChangeOfTheOffsetsPartitionLeavesTheGroupAlone() throws Exception {
        CLUSTER.createTopic(TOPIC, 3, Map.of());
        int coordinator = CLUSTER.broker(0).groupCoordinator().findCoordinator(GROUP, 10_000);
        int partition = OffsetsTopic.partitionFor(GROUP, 5);
        int leaving = (coordinator + 1) % 3;
        Properties props = CLUSTER.clientProps();
        props.put("bootstrap.servers", "127.0.0.1:" + CLUSTER.broker(coordinator).boundPort());
        props.put("group.id", GROUP);
        props.put("enable.auto.commit", "false");
        props.put("heartbeat.interval.ms", "100");
        try (KafkaConsumer<byte[], byte[]> member = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
            member.subscribe(List.of(TOPIC));
            Conditions.waitUntil(() -> {
                member.poll(Duration.ofMillis(50));
                return member.assignment().size() == 3;
            }, 30_000, "the member owning the topic");
            member.commitSync();
            String memberId = member.groupMetadata().memberId();
            int epochBefore = epoch(coordinator, partition);

            CLUSTER.stop(leaving);
            Conditions.waitUntil(() -> epoch(coordinator, partition) > epochBefore, 30_000,
                "the controller raising the offsets partition's leader epoch");
            long until = System.currentTimeMillis() + 2_000;
            while (System.currentTimeMillis() < until) {
                member.poll(Duration.ofMillis(100));
                member.commitSync();
            }
            assertEquals("the member kept its place", memberId, member.groupMetadata().memberId());
            assertEquals(coordinator, CLUSTER.broker(coordinator).groupCoordinator().findCoordinator(GROUP, 10_000));
            assertNotEquals(leaving, coordinator);
        }
    }

    private static int epoch(int broker, int partition) {
        return CLUSTER.broker(broker).cluster().metadata().snapshot().partitionState(OffsetsTopic.NAME, partition)
            .orElseThrow().leaderEpoch();
    }
}
