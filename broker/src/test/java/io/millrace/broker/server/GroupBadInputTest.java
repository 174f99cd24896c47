package io.millrace.broker.server;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.broker.group.GroupConfig;
import io.millrace.broker.network.NetworkConfig;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.FindCoordinatorRequest;
import io.millrace.common.protocol.message.FindCoordinatorResponse;
import io.millrace.common.protocol.message.HeartbeatRequest;
import io.millrace.common.protocol.message.HeartbeatResponse;
import io.millrace.common.protocol.message.JoinGroupRequest;
import io.millrace.common.protocol.message.JoinGroupResponse;
import io.millrace.common.protocol.message.LeaveGroupRequest;
import io.millrace.common.protocol.message.LeaveGroupResponse;
import io.millrace.common.protocol.message.OffsetCommitRequest;
import io.millrace.common.protocol.message.OffsetCommitResponse;
import io.millrace.common.protocol.message.SyncGroupRequest;
import io.millrace.common.protocol.message.SyncGroupResponse;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.GroupMaxSizeReachedException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group requests no well-behaved client sends, over a raw socket, answered with the errors Kafka's
 * coordinator gives; a storm of joins and huge protocol metadata hurt only their own group.
 */
public class GroupBadInputTest {

    private static final Logger LOG = LoggerFactory.getLogger(GroupBadInputTest.class);
    private static final int MAX_REQUEST = 8 * 1024 * 1024;
    private static final int MAX_GROUP_SIZE = 20;
    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 1, Map.of(
        NetworkConfig.SOCKET_REQUEST_MAX_BYTES_CONFIG, MAX_REQUEST,
        GroupConfig.GROUP_MIN_SESSION_TIMEOUT_MS_CONFIG, 300,
        GroupConfig.GROUP_MAX_SIZE_CONFIG, MAX_GROUP_SIZE));

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    private static final short JOIN_V = 9;
    private static final short SYNC_V = 5;
    private static final short HEARTBEAT_V = 4;
    private static final short COMMIT_V = 8;
    private static final short LEAVE_V = 5;
    private static final int LONG_SESSION_MS = 30_000;

    @BeforeClass
    public static void createTopic() throws Exception {
        CLUSTER.createTopic("bad-input-topic", 1, Map.of());
    }

    private static RawClient client() throws Exception {
        return new RawClient(CLUSTER.broker(0).boundPort());
    }

    private static JoinGroupRequest joinRequest(String group, String memberId, int sessionMs, ByteBuffer metadata) {
        return new JoinGroupRequest(group, sessionMs, 10_000, memberId, null, "consumer",
            List.of(new JoinGroupRequest.Protocol("range", metadata)), null);
    }

    /** Joins {@code group} as a new member, alone, and returns the answer naming it leader of generation 1. */
    private static JoinGroupResponse joinAlone(RawClient client, String group) throws Exception {
        JoinGroupResponse first = client.call(joinRequest(group, "", LONG_SESSION_MS, ByteBuffer.allocate(0)), JOIN_V);
        assertEquals(Errors.MEMBER_ID_REQUIRED, first.error());
        JoinGroupResponse joined = client.call(joinRequest(group, first.memberId(), LONG_SESSION_MS, ByteBuffer.allocate(0)), JOIN_V);
        assertEquals(Errors.NONE, joined.error());
        return joined;
    }

    private static SyncGroupResponse sync(RawClient client, String group, int generation, String memberId,
                                          List<SyncGroupRequest.Assignment> assignments) throws Exception {
        return client.call(new SyncGroupRequest(group, generation, memberId, null, "consumer", "range", assignments), SYNC_V);
    }

    private static Errors heartbeat(RawClient client, String group, int generation, String memberId) throws Exception {
        HeartbeatResponse answer = client.call(new HeartbeatRequest(group, generation, memberId, null), HEARTBEAT_V);
        return answer.error();
    }

    private static Errors commit(RawClient client, String group, int generation, String memberId) throws Exception {
        OffsetCommitRequest request = new OffsetCommitRequest(group, generation, memberId, -1, null,
            List.of(new OffsetCommitRequest.Topic("bad-input-topic", List.of(new OffsetCommitRequest.Partition(0, 5, -1, "")))));
        OffsetCommitResponse answer = client.call(request, COMMIT_V);
        return Errors.forCode(answer.topics().get(0).partitions().get(0).errorCode());
    }

    @Test
    public void requestsForAGroupTheCoordinatorDoesNotHoldAreRefusedAsKafkaRefusesThem() throws Exception {
        try (RawClient client = client()) {
            // Kafka's coordinator answers a classic group it does not know with UNKNOWN_MEMBER_ID
            assertEquals(Errors.UNKNOWN_MEMBER_ID, heartbeat(client, "nobody", 3, "m-1"));
            assertEquals(Errors.UNKNOWN_MEMBER_ID, sync(client, "nobody", 3, "m-1", List.of()).error());
            LeaveGroupResponse left = client.call(new LeaveGroupRequest("nobody", "",
                List.of(new LeaveGroupRequest.Member("m-1", null, null))), LEAVE_V);
            assertEquals(Errors.UNKNOWN_MEMBER_ID.code(), left.members().get(0).errorCode());
            // a commit with a generation for a group without members: ILLEGAL_GENERATION (Kafka before
            // OffsetCommit v9, whose classic consumer turns it into CommitFailedException)
            assertEquals(Errors.ILLEGAL_GENERATION, commit(client, "nobody", 3, "m-1"));
            // a consumer outside any group may commit
            assertEquals(Errors.NONE, commit(client, "nobody", -1, ""));
        }
    }

    @Test
    public void aMemberOfAnotherGenerationOrNoMemberAtAllIsRefused() throws Exception {
        String group = "fenced";
        try (RawClient client = client()) {
            JoinGroupResponse joined = joinAlone(client, group);
            String member = joined.memberId();
            int generation = joined.generationId();

            // completing the rebalance: Kafka checks the member and its generation before the state
            assertEquals(Errors.UNKNOWN_MEMBER_ID, commit(client, group, generation, "stranger"));
            assertEquals(Errors.ILLEGAL_GENERATION, commit(client, group, generation + 1, member));
            assertEquals(Errors.REBALANCE_IN_PROGRESS, commit(client, group, generation, member));

            assertEquals(Errors.ILLEGAL_GENERATION, sync(client, group, generation + 1, member, List.of()).error());
            assertEquals(Errors.UNKNOWN_MEMBER_ID, sync(client, group, generation, "stranger", List.of()).error());
            ByteBuffer assignment = ByteBuffer.wrap("p0".getBytes(StandardCharsets.UTF_8));
            SyncGroupResponse synced = sync(client, group, generation, member,
                List.of(new SyncGroupRequest.Assignment(member, assignment)));
            assertEquals(Errors.NONE, synced.error());

            assertEquals(Errors.NONE, heartbeat(client, group, generation, member));
            assertEquals(Errors.ILLEGAL_GENERATION, heartbeat(client, group, generation - 1, member));
            assertEquals(Errors.ILLEGAL_GENERATION, heartbeat(client, group, generation + 1, member));
            assertEquals(Errors.UNKNOWN_MEMBER_ID, heartbeat(client, group, generation, "stranger"));
            assertEquals(Errors.UNKNOWN_MEMBER_ID, heartbeat(client, group, generation, ""));

            assertEquals(Errors.ILLEGAL_GENERATION, commit(client, group, generation - 1, member));
            assertEquals(Errors.UNKNOWN_MEMBER_ID, commit(client, group, generation, "stranger"));
            // no member id and no generation: only while the group is empty
            assertEquals(Errors.UNKNOWN_MEMBER_ID, commit(client, group, -1, ""));
            assertEquals(Errors.NONE, commit(client, group, generation, member));

            LeaveGroupResponse left = client.call(new LeaveGroupRequest(group, "",
                List.of(new LeaveGroupRequest.Member("stranger", null, null), new LeaveGroupRequest.Member(member, null, null))),
                LEAVE_V);
            assertEquals(Errors.UNKNOWN_MEMBER_ID.code(), left.members().get(0).errorCode());
            assertEquals(Errors.NONE.code(), left.members().get(1).errorCode());
            assertEquals(Errors.UNKNOWN_MEMBER_ID, heartbeat(client, group, generation, member));
        }
    }

    @Test
    public void hugeProtocolMetadataUpToTheRequestLimitIsKeptAndBeyondItClosesOnlyItsConnection() throws Exception {
        byte[] huge = new byte[MAX_REQUEST - 64 * 1024];
        for (int i = 0; i < huge.length; i++) {
            huge[i] = (byte) (i * 31);
        }
        try (RawClient client = client(); RawClient offender = client()) {
            JoinGroupResponse first = client.call(joinRequest("huge", "", LONG_SESSION_MS, ByteBuffer.wrap(huge)), JOIN_V);
            assertEquals(Errors.MEMBER_ID_REQUIRED, first.error());
            JoinGroupResponse joined = client.call(joinRequest("huge", first.memberId(), LONG_SESSION_MS, ByteBuffer.wrap(huge)),
                JOIN_V);
            assertEquals(Errors.NONE, joined.error());
            ByteBuffer back = joined.members().get(0).metadata();
            byte[] returned = new byte[back.remaining()];
            back.get(returned);
            assertArrayEquals("the leader gets the metadata back intact", huge, returned);

            // a frame beyond socket.request.max.bytes is refused before it is read, as Kafka does
            try {
                offender.send(joinRequest("huge-too", "", LONG_SESSION_MS, ByteBuffer.allocate(MAX_REQUEST + 1)), JOIN_V);
                assertTrue(offender.closedByBroker());
            } catch (SocketException resetWhileSending) {
                // the broker closed the connection on reading the frame's size
            }
            readAndCommitInAnotherGroup("after-huge", 50);
            assertEquals(Errors.NONE, heartbeat(client, "huge", joined.generationId(), joined.memberId()));
        }
    }

    @Test
    public void aJoinStormIsHeldToGroupMaxSizeWhileOtherGroupsAndProduceAndFetchGoOn() throws Exception {
        String group = "stormed";
        // as a client does before joining: the coordinator is found (and the offsets topic made) first
        assertEquals(0, CLUSTER.broker(0).groupCoordinator().findCoordinator(group, 10_000));
        int connections = 4;
        int joinsEach = 500;
        Map<Errors, AtomicInteger> answers = new ConcurrentHashMap<>();
        AtomicBoolean storming = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(connections);
        long start = System.nanoTime();
        try {
            List<Future<?>> storm = new ArrayList<>();
            for (int c = 0; c < connections; c++) {
                storm.add(pool.submit(() -> {
                    try (RawClient client = client()) {
                        for (int i = 0; i < joinsEach || storming.get(); i++) {
                            JoinGroupResponse answer = client.call(joinRequest(group, "", LONG_SESSION_MS, ByteBuffer.allocate(64)),
                                JOIN_V);
                            answers.computeIfAbsent(answer.error(), e -> new AtomicInteger()).incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            readAndCommitInAnotherGroup("bystanders", 200);
            storming.set(false);
            for (Future<?> f : storm) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            storming.set(false);
            pool.shutdownNow();
        }
        int joins = answers.values().stream().mapToInt(AtomicInteger::get).sum();
        LOG.info("{} joins in {} ms: {}", joins, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), answers);
        assertTrue(joins >= connections * joinsEach);
        assertEquals(MAX_GROUP_SIZE, answers.get(Errors.MEMBER_ID_REQUIRED).get());
        assertEquals(joins - MAX_GROUP_SIZE, answers.get(Errors.GROUP_MAX_SIZE_REACHED).get());
        assertEquals(2, answers.size());

        // Kafka's consumer is told so: the group is full of members that asked for an id
        Properties props = consumerProps(group);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
            consumer.subscribe(List.of("bad-input-topic"));
            long deadline = System.currentTimeMillis() + 20_000;
            try {
                while (System.currentTimeMillis() < deadline) {
                    consumer.poll(Duration.ofMillis(100));
                }
                fail("joined a full group");
            } catch (GroupMaxSizeReachedException expected) {
                // as from Kafka's broker
            }
        }
    }

    @Test
    public void joinsToManyGroupIdsThatNeverComeBackLeaveNoGroupBehind() throws Exception {
        int connections = 4;
        int groupsEach = 100;
        ExecutorService pool = Executors.newFixedThreadPool(connections);
        long start = System.nanoTime();
        try {
            List<Future<?>> storm = new ArrayList<>();
            for (int c = 0; c < connections; c++) {
                int connection = c;
                storm.add(pool.submit(() -> {
                    try (RawClient client = client()) {
                        List<String> groups = new ArrayList<>();
                        for (int i = 0; i < groupsEach; i++) {
                            groups.add("scattered-" + connection + "-" + i);
                        }
                        // as a client does first: it answers once the coordinator has loaded the groups' partitions
                        FindCoordinatorResponse found = client.call(FindCoordinatorRequest.forGroups(groups), (short) 4);
                        for (FindCoordinatorResponse.Coordinator coordinator : found.coordinators()) {
                            assertEquals(coordinator.key(), Errors.NONE, coordinator.error());
                        }
                        for (String group : groups) {
                            JoinGroupResponse answer = client.call(joinRequest(group, "", 500, ByteBuffer.allocate(64)), JOIN_V);
                            assertEquals(Errors.MEMBER_ID_REQUIRED, answer.error());
                        }
                    }
                    return null;
                }));
            }
            readAndCommitInAnotherGroup("scattered-bystanders", 200);
            for (Future<?> f : storm) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        LOG.info("{} joins to as many groups in {} ms", connections * groupsEach,
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            Conditions.waitUntil(() -> {
                try {
                    return admin.listGroups(ListGroupsOptions.forConsumerGroups()).all().get(10, TimeUnit.SECONDS).stream()
                        .noneMatch(g -> g.groupId().startsWith("scattered-") && !g.groupId().equals("scattered-bystanders"));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, 15_000, "the groups whose members never came back gone");
        }
    }

    @Test
    public void membersThatAskedForAnIdAndNeverCameBackExpireAndFreeTheirPlaces() throws Exception {
        String group = "forgetful";
        int shortSessionMs = 500;
        try (RawClient client = client()) {
            for (int i = 0; i < MAX_GROUP_SIZE; i++) {
                JoinGroupResponse answer = client.call(joinRequest(group, "", shortSessionMs, ByteBuffer.allocate(0)), JOIN_V);
                assertEquals(Errors.MEMBER_ID_REQUIRED, answer.error());
            }
            JoinGroupResponse full = client.call(joinRequest(group, "", shortSessionMs, ByteBuffer.allocate(0)), JOIN_V);
            assertEquals(Errors.GROUP_MAX_SIZE_REACHED, full.error());
            Conditions.waitUntil(() -> {
                try {
                    JoinGroupResponse again = client.call(joinRequest(group, "", LONG_SESSION_MS, ByteBuffer.allocate(0)), JOIN_V);
                    return again.error() == Errors.MEMBER_ID_REQUIRED;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, 5_000, "a place freed by the expired pending members");
        }
    }

    private static Properties consumerProps(String group) {
        Properties props = CLUSTER.clientProps();
        props.put("group.id", group);
        props.put("enable.auto.commit", "false");
        props.put("auto.offset.reset", "earliest");
        props.put("session.timeout.ms", "3000");
        props.put("heartbeat.interval.ms", "200");
        return props;
    }

    /** Produces {@code count} records to a topic of its own and reads them all with a consumer in {@code group}. */
    private static void readAndCommitInAnotherGroup(String group, int count) throws Exception {
        String topic = group + "-topic";
        CLUSTER.createTopic(topic, 2, Map.of());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(CLUSTER.clientProps(), new ByteArraySerializer(),
            new ByteArraySerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, ("v-" + i).getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }
        Set<String> read = ConcurrentHashMap.newKeySet();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProps(group), new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.currentTimeMillis() + 30_000;
            while (read.size() < count && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    read.add(new String(r.value(), StandardCharsets.UTF_8));
                }
            }
            consumer.commitSync();
        }
        assertEquals(count, read.size());
    }
}
