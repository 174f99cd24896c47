package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.DescribeGroupsRequest;
import io.millrace.common.protocol.message.DescribeGroupsResponse;
import io.millrace.common.protocol.message.ListGroupsRequest;
import io.millrace.common.protocol.message.ListGroupsResponse;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.errors.GroupSubscribedToTopicException;
import org.apache.kafka.common.errors.InconsistentGroupProtocolException;
import org.apache.kafka.common.errors.UnknownMemberIdException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.zookeeper.CreateMode;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * Kafka's AdminClient administering the consumer groups of one Millrace broker: listing, describing,
 * reading and altering offsets, deleting groups and offsets, the answers for unknown groups, and the
 * rule that a group id is of one kind at a time (Kafka's protocol or ZooKeeper's group consumer):
 * neither a member nor an admin's commit gets into a group of ZooKeeper group consumers.
 */
public class KafkaGroupAdminTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 1, Map.of());

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    private static Admin admin;

    @BeforeClass
    public static void openAdmin() {
        admin = Admin.create(CLUSTER.clientProps());
    }

    @AfterClass
    public static void closeAdmin() {
        admin.close(Duration.ofSeconds(5));
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String group, String clientId) {
        Properties props = CLUSTER.clientProps();
        props.put("group.id", group);
        props.put("client.id", clientId);
        props.put("enable.auto.commit", "false");
        props.put("auto.offset.reset", "earliest");
        props.put("session.timeout.ms", "6000");
        props.put("heartbeat.interval.ms", "300");
        return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** A consumer subscribed to {@code topic}, polled until it has {@code partitions} partitions assigned. */
    private static KafkaConsumer<byte[], byte[]> member(String group, String topic, int partitions) {
        KafkaConsumer<byte[], byte[]> consumer = consumer(group, group + "-member");
        consumer.subscribe(List.of(topic));
        long deadline = System.currentTimeMillis() + 30_000;
        while (consumer.assignment().size() < partitions) {
            consumer.poll(Duration.ofMillis(100));
            assertTrue("no assignment within 30 s", System.currentTimeMillis() < deadline);
        }
        return consumer;
    }

    /** Polls until {@code count} records have come, for up to 30 s. */
    private static List<ConsumerRecord<byte[], byte[]>> poll(KafkaConsumer<byte[], byte[]> consumer, int count) {
        List<ConsumerRecord<byte[], byte[]>> records = new java.util.ArrayList<>();
        long deadline = System.currentTimeMillis() + 30_000;
        while (records.size() < count) {
            consumer.poll(Duration.ofMillis(100)).forEach(records::add);
            assertTrue("read " + records.size() + " of " + count + " records within 30 s",
                System.currentTimeMillis() < deadline);
        }
        return records;
    }

    private static void produce(String topic, int partition, int count) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(CLUSTER.clientProps(), new ByteArraySerializer(),
            new ByteArraySerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, partition, null, ("v" + i).getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }
    }

    private static Map<String, GroupListing> listed() throws Exception {
        Collection<GroupListing> all = admin.listGroups(ListGroupsOptions.forConsumerGroups()).all().get(10, TimeUnit.SECONDS);
        return all.stream().collect(Collectors.toMap(GroupListing::groupId, g -> g));
    }

    private static Map<TopicPartition, OffsetAndMetadata> committed(String group) throws Exception {
        return admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
    }

    private static CuratorFramework curator() {
        return CLUSTER.broker(0).cluster().curator();
    }

    private static Throwable cause(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            return e.getCause() instanceof ExecutionException ? e.getCause().getCause() : e.getCause();
        }
        fail("expected a failure");
        return null;
    }

    private static <T> T get(org.apache.kafka.common.KafkaFuture<T> future) {
        try {
            return future.get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    @Test
    public void aLiveGroupIsListedAndDescribedWithItsMembersAndAssignmentThenListedEmptyWithItsOffsets() throws Exception {
        String topic = "described";
        String group = "describe-me";
        CLUSTER.createTopic(topic, 3, Map.of());
        try (KafkaConsumer<byte[], byte[]> consumer = member(group, topic, 3)) {
            consumer.commitSync(Map.of(new TopicPartition(topic, 1), new OffsetAndMetadata(0)));
            GroupListing listing = listed().get(group);
            assertNotNull(group + " listed", listing);
            assertEquals(GroupState.STABLE, listing.groupState().orElseThrow());
            assertEquals("consumer", listing.protocol());

            ConsumerGroupDescription description = get(admin.describeConsumerGroups(List.of(group)).describedGroups().get(group));
            assertEquals(GroupState.STABLE, description.groupState());
            assertEquals("range", description.partitionAssignor());
            assertEquals(1, description.members().size());
            MemberDescription m = description.members().iterator().next();
            assertEquals(group + "-member", m.clientId());
            assertEquals("/127.0.0.1", m.host());
            assertEquals(consumer.assignment(), m.assignment().topicPartitions());
            assertEquals(3, m.assignment().topicPartitions().size());
            assertTrue("the marker of a group with Kafka-protocol members",
                curator().checkExists().forPath("/millrace/consumers/" + group + "/kafka-members") != null);
        }
        // closed: the member left; the group lives on as its committed offsets
        Conditions.waitUntil(() -> {
            try {
                GroupListing l = listed().get(group);
                return l != null && l.groupState().orElseThrow() == GroupState.EMPTY;
            } catch (Exception e) {
                return false;
            }
        }, "the group listed Empty");
        assertEquals(Map.of(new TopicPartition(topic, 1), new OffsetAndMetadata(0)), committed(group));
        ConsumerGroupDescription empty = get(admin.describeConsumerGroups(List.of(group)).describedGroups().get(group));
        assertEquals(GroupState.EMPTY, empty.groupState());
        assertTrue(empty.members().isEmpty());
        Conditions.waitUntil(() -> exists("/millrace/consumers/" + group + "/kafka-members") == false,
            "the marker removed once the group is empty");
        String kafkaGroup = new String(curator().getData().forPath("/millrace/consumers/" + group + "/kafka-group"),
            StandardCharsets.UTF_8);
        assertTrue(kafkaGroup, kafkaGroup.contains("\"protocol_type\":\"consumer\""));
        assertFalse("an empty_since time is recorded: " + kafkaGroup, kafkaGroup.contains("\"empty_since\":-1"));
    }

    private static boolean exists(String path) {
        try {
            return curator().checkExists().forPath(path) != null;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    public void offsetsAlteredOnAnEmptyGroupAreWhereItsNextConsumerResumes() throws Exception {
        String topic = "altered";
        String group = "alter-me";
        CLUSTER.createTopic(topic, 1, Map.of());
        produce(topic, 0, 10);
        TopicPartition tp = new TopicPartition(topic, 0);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(group, "first")) {
            consumer.subscribe(List.of(topic));
            assertEquals(10, poll(consumer, 10).size());
            consumer.commitSync();
        }
        assertEquals(10, committed(group).get(tp).offset());
        get(admin.alterConsumerGroupOffsets(group, Map.of(tp, new OffsetAndMetadata(4, "rewound"))).all());
        assertEquals(new OffsetAndMetadata(4, "rewound"), committed(group).get(tp));
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(group, "second")) {
            consumer.subscribe(List.of(topic));
            ConsumerRecord<byte[], byte[]> first = poll(consumer, 1).get(0);
            assertEquals(4, first.offset());
            assertEquals("v4", new String(first.value(), StandardCharsets.UTF_8));
        }
    }

    @Test
    public void aGroupWithMembersIsNotDeletedAndAnEmptyOneIsDeletedWithItsOffsets() throws Exception {
        String topic = "deleted";
        String group = "delete-me";
        CLUSTER.createTopic(topic, 2, Map.of());
        TopicPartition tp = new TopicPartition(topic, 0);
        try (KafkaConsumer<byte[], byte[]> consumer = member(group, topic, 2)) {
            consumer.commitSync(Map.of(tp, new OffsetAndMetadata(0)));
            Throwable refused = cause(() -> get(admin.deleteConsumerGroups(List.of(group)).all()));
            assertTrue("got " + refused, refused instanceof GroupNotEmptyException);
        }
        get(admin.deleteConsumerGroups(List.of(group)).all());
        assertEquals(Map.of(), committed(group));
        assertFalse("the group's offsets are gone from ZooKeeper", exists("/millrace/consumers/" + group + "/offsets"));
        assertNull(listed().get(group));
        Throwable unknown = cause(() -> get(admin.deleteConsumerGroups(List.of(group)).all()));
        assertTrue("got " + unknown, unknown instanceof GroupIdNotFoundException);
    }

    @Test
    public void offsetsOfATopicTheGroupSubscribesToStayAndOthersAreDeleted() throws Exception {
        String subscribed = "offsets-kept";
        String other = "offsets-dropped";
        String group = "delete-offsets";
        CLUSTER.createTopic(subscribed, 1, Map.of());
        CLUSTER.createTopic(other, 1, Map.of());
        TopicPartition kept = new TopicPartition(subscribed, 0);
        TopicPartition dropped = new TopicPartition(other, 0);
        try (KafkaConsumer<byte[], byte[]> consumer = member(group, subscribed, 1)) {
            consumer.commitSync(Map.of(kept, new OffsetAndMetadata(0), dropped, new OffsetAndMetadata(0)));
            Throwable refused = cause(() -> get(admin.deleteConsumerGroupOffsets(group, Set.of(kept)).all()));
            assertTrue("got " + refused, refused instanceof GroupSubscribedToTopicException);
            get(admin.deleteConsumerGroupOffsets(group, Set.of(dropped)).all());
            assertEquals(Set.of(kept), committed(group).keySet());
        }
        // once the group is empty, every offset may go
        get(admin.deleteConsumerGroupOffsets(group, Set.of(kept)).all());
        assertEquals(Map.of(), committed(group));
    }

    @Test
    public void anUnknownGroupIsDeadWithoutAnErrorAndListsFilterByStateAndType() throws Exception {
        // as the AdminClient does before describing: the coordinator is found (and the offsets topic made) first
        assertEquals(0, CLUSTER.broker(0).groupCoordinator().findCoordinator("never-seen", 10_000));
        try (RawClient client = new RawClient(CLUSTER.broker(0).boundPort())) {
            DescribeGroupsResponse described = client.call(new DescribeGroupsRequest(List.of("never-seen"), false), (short) 5);
            DescribeGroupsResponse.Group g = described.groups().get(0);
            assertEquals(Errors.NONE, g.error());
            assertEquals("Dead", g.groupState());
            assertEquals(List.of(), g.members());

            DescribeGroupsResponse invalid = client.call(new DescribeGroupsRequest(List.of(""), false), (short) 6);
            assertEquals(Errors.INVALID_GROUP_ID, invalid.groups().get(0).error());

            ListGroupsResponse none = client.call(new ListGroupsRequest(List.of(), List.of("consumer")), (short) 5);
            assertEquals(List.of(), none.groups());
            ListGroupsResponse stable = client.call(new ListGroupsRequest(List.of("stable"), List.of()), (short) 4);
            assertTrue(stable.groups().stream().allMatch(l -> l.groupState().equals("Stable")));
        }
        ConsumerGroupDescription unknown = get(admin.describeConsumerGroups(List.of("never-seen")).describedGroups()
            .get("never-seen"));
        assertEquals(GroupState.DEAD, unknown.groupState());
        assertTrue(unknown.members().isEmpty());
        assertEquals(Map.of(), committed("never-seen"));
    }

    @Test
    public void aKafkaConsumerCannotJoinAGroupOfZooKeeperGroupConsumers() throws Exception {
        String topic = "one-kind";
        String group = "zookeeper-group";
        CLUSTER.createTopic(topic, 1, Map.of());
        // what Millrace's ZooKeeper group consumer registers, as the consumer module writes it
        curator().create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(
            "/millrace/consumers/" + group + "/ids/" + group + "_host-1-abc",
            "{\"version\":1,\"subscription\":{\"one-kind\":1},\"pattern\":\"static\",\"timestamp\":1}"
                .getBytes(StandardCharsets.UTF_8));
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(group, "kafka-intruder")) {
            consumer.subscribe(List.of(topic));
            long deadline = System.currentTimeMillis() + 15_000;
            try {
                while (System.currentTimeMillis() < deadline) {
                    consumer.poll(Duration.ofMillis(100));
                }
                fail("joined a group of ZooKeeper group consumers");
            } catch (InconsistentGroupProtocolException expected) {
                // Kafka's error for a group of another protocol
            }
        }
        Throwable described = cause(() -> get(admin.describeConsumerGroups(List.of(group)).describedGroups().get(group)));
        assertTrue("got " + described, described instanceof InconsistentGroupProtocolException);
        assertTrue(described.getMessage(), described.getMessage().contains("ZooKeeper group consumer"));
        Throwable deleted = cause(() -> get(admin.deleteConsumerGroups(List.of(group)).all()));
        assertTrue("got " + deleted, deleted instanceof GroupNotEmptyException);
        Throwable altered = cause(() -> get(admin.alterConsumerGroupOffsets(group,
            Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(0))).all()));
        assertTrue("got " + altered, altered instanceof UnknownMemberIdException);
        assertFalse(exists("/millrace/consumers/" + group + "/offsets"));
        assertNull("not listed as a Kafka group", listed().get(group));
        Conditions.waitUntil(() -> !exists("/millrace/consumers/" + group + "/kafka-members"),
            "no marker left by the refused join");
    }
}
