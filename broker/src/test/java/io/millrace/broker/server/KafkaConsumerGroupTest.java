package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.FindCoordinatorRequest;
import io.millrace.common.protocol.message.FindCoordinatorResponse;
import io.millrace.common.protocol.message.JoinGroupRequest;
import io.millrace.common.protocol.message.JoinGroupResponse;
import io.millrace.common.protocol.message.OffsetCommitRequest;
import io.millrace.common.protocol.message.OffsetCommitResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Apache Kafka's {@code KafkaConsumer} with {@code group.id} and {@code subscribe()} against two
 * Millrace brokers: the group coordinator balances partitions across members joining and leaving,
 * and committed offsets (kept in ZooKeeper's offset registry) carry a restarted group on.
 */
public class KafkaConsumerGroupTest {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaConsumerGroupTest.class);
    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 2, Map.of());

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    private static final int PARTITIONS = 6;

    /** Every record value read, and how often, across all members of the group. */
    private final Map<String, AtomicInteger> reads = new ConcurrentHashMap<>();

    /** A group member polling on its own thread and committing synchronously after each batch. */
    private PollingMember member(String group, String topic, String name) {
        return member(group, topic, name, "org.apache.kafka.clients.consumer.RangeAssignor");
    }

    private PollingMember member(String group, String topic, String name, String assignor) {
        return member(group, topic, name, assignor, Map.of());
    }

    private PollingMember member(String group, String topic, String name, String assignor, Map<String, String> extra) {
        Properties props = CLUSTER.clientProps();
        props.put("partition.assignment.strategy", assignor);
        props.put("group.id", group);
        props.put("auto.offset.reset", "earliest");
        props.put("session.timeout.ms", "6000");
        props.put("heartbeat.interval.ms", "300");
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

    @Test
    public void membersJoiningAndLeavingReadEveryRecordOnceAndARestartedGroupResumesFromItsCommits() throws Exception {
        String topic = "group-topic";
        String group = "readers";
        CLUSTER.createTopic(topic, PARTITIONS, Map.of());
        long start = System.nanoTime();
        produce(topic, 0, 300);
        PollingMember a = member(group, topic, "a");
        awaitReads(100);
        PollingMember b = member(group, topic, "b");
        Conditions.waitUntil(() -> !a.assigned().isEmpty() && !b.assigned().isEmpty()
            && a.assigned().size() + b.assigned().size() == PARTITIONS, 30_000, "the partitions shared by a and b");
        produce(topic, 300, 300);
        awaitReads(600);
        a.close();
        Conditions.waitUntil(() -> b.assigned().size() == PARTITIONS, 30_000, "b taking every partition");
        produce(topic, 600, 300);
        awaitReads(900);
        b.close();
        assertEachReadOnce(900);
        assertTrue("a read " + a.read(), a.read() > 0);
        assertTrue("b read " + b.read(), b.read() > 0);
        LOG.info("a read {}, b read {} of 900 in {} ms", a.read(), b.read(),
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));

        // the commits are in the offset registry, where bin/millrace consumer-groups reads them
        long committed = 0;
        for (int p = 0; p < PARTITIONS; p++) {
            byte[] node = CLUSTER.broker(0).cluster().curator().getData()
                .forPath("/millrace/consumers/" + group + "/offsets/" + topic + "/" + p);
            committed += Long.parseLong(new String(node, StandardCharsets.UTF_8));
        }
        assertEquals(900, committed);

        produce(topic, 900, 120);
        PollingMember c = member(group, topic, "c");
        awaitReads(1020);
        c.close();
        assertEquals("the restarted group read only what came after its commits", 120, c.read());
        assertEachReadOnce(1020);
    }

    @Test
    public void threeMembersReadEveryRecordOnceWithTheRoundRobinAssignor() throws Exception {
        threeMembersJoinAndOneLeaves("org.apache.kafka.clients.consumer.RoundRobinAssignor", "round-robin");
    }

    @Test
    public void threeMembersReadEveryRecordOnceWithTheCooperativeStickyAssignor() throws Exception {
        threeMembersJoinAndOneLeaves("org.apache.kafka.clients.consumer.CooperativeStickyAssignor", "cooperative");
    }

    /** Members a, b, c join one after another, then b leaves; each batch of records is read once in all. */
    private void threeMembersJoinAndOneLeaves(String assignor, String name) throws Exception {
        String topic = name + "-topic";
        String group = name + "-group";
        CLUSTER.createTopic(topic, PARTITIONS, Map.of());
        produce(topic, 0, 200);
        PollingMember a = member(group, topic, name + "-a", assignor);
        awaitReads(50);
        PollingMember b = member(group, topic, name + "-b", assignor);
        PollingMember c = member(group, topic, name + "-c", assignor);
        Conditions.waitUntil(() -> a.assigned().size() == 2 && b.assigned().size() == 2 && c.assigned().size() == 2, 30_000,
            "two partitions for each of three members");
        produce(topic, 200, 200);
        awaitReads(400);
        b.close();
        Conditions.waitUntil(() -> a.assigned().size() == 3 && c.assigned().size() == 3, 30_000,
            "three partitions for each of the two members left");
        produce(topic, 400, 200);
        awaitReads(600);
        a.close();
        c.close();
        assertEachReadOnce(600);
        assertTrue("c read " + c.read(), c.read() > 0);
    }

    @Test
    public void aStaticMemberRestartingWithinItsSessionTimeoutGetsItsPartitionsBackWithoutARebalance() throws Exception {
        String topic = "static-topic";
        String group = "static-group";
        String range = "org.apache.kafka.clients.consumer.RangeAssignor";
        CLUSTER.createTopic(topic, PARTITIONS, Map.of());
        Map<String, String> sessionOf10s = Map.of("session.timeout.ms", "10000");
        PollingMember a = member(group, topic, "static-a", range, instance("static-a", sessionOf10s));
        PollingMember b = member(group, topic, "static-b", range, instance("static-b", sessionOf10s));
        Conditions.waitUntil(() -> a.assigned().size() == 3 && b.assigned().size() == 3, 30_000, "three partitions each");
        Set<TopicPartition> bPartitions = Set.copyOf(b.assigned());
        produce(topic, 0, 120);
        awaitReads(120);
        int aAssignments = a.assignments();
        b.close(); // a static member does not leave the group when it closes

        PollingMember restarted = member(group, topic, "static-b", range, instance("static-b", sessionOf10s));
        Conditions.waitUntil(() -> restarted.assigned().size() == 3, 30_000, "the restarted member's partitions");
        assertEquals(bPartitions, restarted.assigned());
        produce(topic, 120, 120);
        awaitReads(240);
        assertEquals("a saw no rebalance", aAssignments, a.assignments());
        assertEquals(3, a.assigned().size());
        a.close();
        restarted.close();
        assertEachReadOnce(240);
    }

    private static Map<String, String> instance(String id, Map<String, String> more) {
        Map<String, String> props = new java.util.HashMap<>(more);
        props.put("group.instance.id", id);
        return props;
    }

    @Test
    public void committedMetadataIsKeptAndAConsumerOutsideAnyGroupCommitsWithAssign() throws Exception {
        String topic = "assigned-topic";
        CLUSTER.createTopic(topic, 2, Map.of());
        Properties props = CLUSTER.clientProps();
        props.put("group.id", "manual");
        props.put("enable.auto.commit", "false");
        TopicPartition tp = new TopicPartition(topic, 1);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
            consumer.assign(List.of(tp));
            consumer.commitSync(Map.of(tp, new OffsetAndMetadata(42, "checkpoint-7")));
            OffsetAndMetadata read = consumer.committed(Set.of(tp)).get(tp);
            assertEquals(42, read.offset());
            assertEquals("checkpoint-7", read.metadata());
            consumer.commitSync(Map.of(tp, new OffsetAndMetadata(43)));
            read = consumer.committed(Set.of(tp)).get(tp);
            assertEquals(43, read.offset());
            assertEquals("", read.metadata());
            assertEquals(null, consumer.committed(Set.of(new TopicPartition(topic, 0))).get(new TopicPartition(topic, 0)));
        }
    }

    @Test
    public void everyBrokerNamesTheSameCoordinatorAndTheOtherAnswersNotCoordinator() throws Exception {
        String group = "raw-group";
        List<Integer> named = new ArrayList<>();
        for (int b = 0; b < 2; b++) {
            try (RawClient client = new RawClient(CLUSTER.broker(b).boundPort())) {
                FindCoordinatorResponse single = client.call(FindCoordinatorRequest.forGroup(group), (short) 3);
                assertEquals(Errors.NONE, single.error());
                FindCoordinatorResponse batched = client.call(FindCoordinatorRequest.forGroups(List.of(group, "x")), (short) 4);
                assertEquals(2, batched.coordinators().size());
                assertEquals(single.nodeId(), batched.coordinators().get(0).nodeId());
                named.add(single.nodeId());
            }
        }
        assertEquals(1, new HashSet<>(named).size());
        int other = 1 - named.get(0);
        try (RawClient client = new RawClient(CLUSTER.broker(other).boundPort())) {
            JoinGroupRequest join = new JoinGroupRequest(group, 10_000, 10_000, "", null, "consumer",
                List.of(new JoinGroupRequest.Protocol("range", ByteBuffer.allocate(0))), null);
            JoinGroupResponse refused = client.call(join, (short) 9);
            assertEquals(Errors.NOT_COORDINATOR, refused.error());
            OffsetCommitRequest commitRequest = new OffsetCommitRequest(group, -1, "", -1, null,
                List.of(new OffsetCommitRequest.Topic("t", List.of(new OffsetCommitRequest.Partition(0, 1, -1, "")))));
            OffsetCommitResponse commit = client.call(commitRequest, (short) 9);
            assertEquals(Errors.NOT_COORDINATOR.code(), commit.topics().get(0).partitions().get(0).errorCode());
        }
        try (RawClient client = new RawClient(CLUSTER.broker(named.get(0)).boundPort())) {
            JoinGroupRequest join = new JoinGroupRequest(group, 10_000, 10_000, "", null, "consumer",
                List.of(new JoinGroupRequest.Protocol("range", ByteBuffer.allocate(0))), null);
            JoinGroupResponse first = client.call(join, (short) 9);
            assertEquals(Errors.MEMBER_ID_REQUIRED, first.error());
            JoinGroupRequest again = new JoinGroupRequest(group, 10_000, 10_000, first.memberId(), null, "consumer",
                join.protocols(), null);
            JoinGroupResponse joined = client.call(again, (short) 9);
            assertEquals(Errors.NONE, joined.error());
            assertEquals(first.memberId(), joined.leader());
            assertEquals(1, joined.generationId());
        }
    }
}
