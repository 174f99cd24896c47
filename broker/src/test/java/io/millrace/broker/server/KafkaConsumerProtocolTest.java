package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InconsistentGroupProtocolException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * Apache Kafka's {@code KafkaConsumer} with {@code group.protocol=consumer}, the consumer group
 * protocol of KIP-848, against two Millrace brokers: the coordinator assigns the partitions, members
 * joining and leaving move them without any partition read by two members, commits carry the member
 * epoch, and the admin client lists and describes the group.
 */
public class KafkaConsumerProtocolTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 2,
        Map.of("group.consumer.heartbeat.interval.ms", "300"));

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    private static final int PARTITIONS = 12;

    private final Map<String, AtomicInteger> reads = new ConcurrentHashMap<>();

    private PollingMember member(String group, String topic, String name, Map<String, String> extra) {
        Properties props = CLUSTER.clientProps();
        props.put("group.protocol", "consumer");
        props.put("group.id", group);
        props.put("auto.offset.reset", "earliest");
        props.put("max.poll.records", "50");
        props.putAll(extra);
        return new PollingMember(props, topic, name, reads);
    }

    private static void produce(String topic, int from, int count) throws Exception {
        GroupReads.produce(CLUSTER.clientProps(), topic, PARTITIONS, from, count);
    }

    private void awaitReads(int total) {
        GroupReads.awaitReads(reads, total);
    }

    private void assertEachReadOnce(int total) {
        GroupReads.assertEachReadOnce(reads, total);
    }

    private static boolean splitEvenly(List<PollingMember> members) {
        Set<TopicPartition> all = new HashSet<>();
        int total = 0;
        for (PollingMember m : members) {
            total += m.assigned().size();
            all.addAll(m.assigned());
            if (m.assigned().size() != PARTITIONS / members.size()) {
                return false;
            }
        }
        return total == PARTITIONS && all.size() == PARTITIONS;
    }

    @Test
    public void membersJoiningAndLeavingShareThePartitionsAndReadEveryRecordOnce() throws Exception {
        String topic = "kip848-topic";
        String group = "kip848-readers";
        CLUSTER.createTopic(topic, PARTITIONS, Map.of());
        produce(topic, 0, 600);
        PollingMember a = member(group, topic, "a", Map.of());
        awaitReads(100);
        PollingMember b = member(group, topic, "b", Map.of());
        PollingMember c = member(group, topic, "c", Map.of());
        Conditions.waitUntil(() -> splitEvenly(List.of(a, b, c)), 30_000, "four partitions for each of a, b and c");
        produce(topic, 600, 600);
        awaitReads(1200);

        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            ConsumerGroupDescription described = admin.describeConsumerGroups(List.of(group)).all().get(30, TimeUnit.SECONDS)
                .get(group);
            assertEquals(3, described.members().size());
            Set<TopicPartition> described12 = new HashSet<>();
            described.members().forEach(m -> described12.addAll(m.assignment().topicPartitions()));
            assertEquals(PARTITIONS, described12.size());
            GroupListing listed = admin.listGroups(new ListGroupsOptions().withTypes(Set.of(GroupType.CONSUMER)))
                .all().get(30, TimeUnit.SECONDS).stream().filter(g -> g.groupId().equals(group)).findFirst().orElseThrow();
            assertEquals(java.util.Optional.of(GroupType.CONSUMER), listed.type());
        }

        a.close();
        Conditions.waitUntil(() -> splitEvenly(List.of(b, c)), 30_000, "six partitions for each of b and c");
        produce(topic, 1200, 600);
        awaitReads(1800);
        b.close();
        c.close();
        assertEachReadOnce(1800);
        assertTrue("each member read some: " + a.read() + ", " + b.read() + ", " + c.read(),
            a.read() > 0 && b.read() > 0 && c.read() > 0);
    }

    @Test
    public void aClassicMemberCannotJoinAGroupOnTheConsumerProtocol() throws Exception {
        String topic = "kip848-mixed";
        String group = "kip848-mixed-readers";
        CLUSTER.createTopic(topic, 2, Map.of());
        produce(topic, 0, 0);
        PollingMember modern = member(group, topic, "modern", Map.of());
        Conditions.waitUntil(() -> modern.assigned().size() == 2, 30_000, "the consumer-protocol member's partitions");
        Properties props = CLUSTER.clientProps();
        props.put("group.id", group);
        try (KafkaConsumer<byte[], byte[]> classic = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            classic.subscribe(List.of(topic));
            assertThrows(InconsistentGroupProtocolException.class, () -> {
                for (int i = 0; i < 100; i++) {
                    classic.poll(Duration.ofMillis(100));
                }
            });
        }
        modern.close();
    }
}
