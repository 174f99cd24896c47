package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.cluster.ClusterPaths;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.AlterPartitionReassignmentsRequest;
import io.millrace.common.protocol.message.AlterPartitionReassignmentsResponse;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterPartitionReassignmentsOptions;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.PartitionReassignment;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.InvalidReplicaAssignmentException;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.NoReassignmentInProgressException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.zookeeper.CreateMode;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * Kafka's AdminClient moving partitions between three Millrace brokers (AlterPartitionReassignments,
 * ListPartitionReassignments): to another broker, to more replicas and to fewer, every record still
 * there and readable from the new leader, the removed replicas' logs deleted; a move that cannot
 * finish listed and then cancelled; and the refusals Kafka gives.
 */
public class PartitionReassignmentTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 3, Map.of());

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    @Test
    public void aPartitionMovesToAnotherBrokerThenGrowsAndShrinksKeepingEveryRecord() throws Exception {
        String topic = "moved";
        TopicPartition tp = new TopicPartition(topic, 0);
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            List<Integer> placed = create(admin, topic, 1);
            int first = placed.get(0);
            int second = (first + 1) % 3;
            int third = (first + 2) % 3;
            produce(topic, 0, 500);

            reassign(admin, tp, List.of(second));
            awaitReplicas(admin, tp, List.of(second), List.of(second));
            assertEquals(second, describe(admin, tp).leader().id());
            awaitLogDeleted(first, tp);
            assertEquals(500, consume(topic).size());

            produce(topic, 500, 300);
            reassign(admin, tp, List.of(second, first, third));
            awaitReplicas(admin, tp, List.of(second, first, third), List.of(second, first, third));
            reassign(admin, tp, List.of(third, first));
            awaitReplicas(admin, tp, List.of(third, first), List.of(third, first));
            // the leader was removed: the leadership went to the target's first in-sync replica
            assertEquals(third, describe(admin, tp).leader().id());
            awaitLogDeleted(second, tp);
            List<String> values = consume(topic).stream().map(ConsumerRecord::value).toList();
            assertEquals(800, values.size());
            for (int i = 0; i < 800; i++) {
                assertEquals("record-" + i, values.get(i));
            }
        }
    }

    @Test
    public void everyRecordAcknowledgedWhileThePartitionMovesIsKeptOnceAndInOrder() throws Exception {
        String topic = "busy";
        TopicPartition tp = new TopicPartition(topic, 0);
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            List<Integer> placed = create(admin, topic, 2);
            int other = 3 - placed.get(0) - placed.get(1);
            AtomicBoolean stop = new AtomicBoolean();
            List<Integer> acknowledged = Collections.synchronizedList(new ArrayList<>());
            Thread producing = new Thread(() -> produceUntil(topic, stop, acknowledged), "busy-producer");
            producing.start();
            try {
                Conditions.waitUntil(() -> acknowledged.size() > 2_000, "records before the first move");
                // the leader goes: the new one comes in, the old leader leaves
                reassign(admin, tp, List.of(other, placed.get(1)));
                awaitReplicas(admin, tp, List.of(other, placed.get(1)), List.of(other, placed.get(1)));
                int before = acknowledged.size();
                Conditions.waitUntil(() -> acknowledged.size() > before + 2_000, "records after the first move");
                reassign(admin, tp, List.of(placed.get(0), other, placed.get(1)));
                awaitReplicas(admin, tp, List.of(placed.get(0), other, placed.get(1)),
                    List.of(placed.get(0), other, placed.get(1)));
                int after = acknowledged.size();
                Conditions.waitUntil(() -> acknowledged.size() > after + 2_000, "records after the second move");
            } finally {
                stop.set(true);
                producing.join(60_000);
            }
            List<Integer> read = consume(topic).stream().map(r -> Integer.parseInt(r.value().substring("record-".length())))
                .toList();
            List<Integer> sent = List.copyOf(acknowledged);
            assertTrue(sent.size() + " acknowledged", sent.size() > 6_000);
            // idempotent and in order: the log holds each record sent once, in send order, and every acknowledged one
            assertEquals(read.size(), read.stream().distinct().count());
            for (int i = 1; i < read.size(); i++) {
                assertTrue("out of order at " + i, read.get(i) > read.get(i - 1));
            }
            assertTrue(new java.util.HashSet<>(read).containsAll(sent));
        }
    }

    /** Sends numbered records with acks=all until {@code stop}, adding each acknowledged number. */
    private static void produceUntil(String topic, AtomicBoolean stop, List<Integer> acknowledged) {
        Properties props = CLUSTER.clientProps();
        props.put("acks", "all");
        props.put("enable.idempotence", "true");
        props.put("linger.ms", "1");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; !stop.get(); i++) {
                int number = i;
                producer.send(new ProducerRecord<>(topic, 0, null, "record-" + number), (metadata, failure) -> {
                    if (failure == null) {
                        acknowledged.add(number);
                    }
                });
                if (i % 500 == 0) {
                    producer.flush();
                }
            }
            producer.flush();
        }
    }

    @Test
    public void aMoveThatCannotFinishIsListedAndCanBeCancelled() throws Exception {
        String topic = "stuck";
        TopicPartition tp = new TopicPartition(topic, 0);
        try (Admin admin = Admin.create(CLUSTER.clientProps());
             CuratorFramework zk = CuratorFrameworkFactory.newClient(ZOOKEEPER.connectString(), new RetryOneTime(100))) {
            List<Integer> placed = create(admin, topic, 2);
            produce(topic, 0, 10);
            zk.start();
            registerNeverFetchingBroker(zk);
            try {
                reassign(admin, tp, List.of(9, placed.get(0)));
                Map<TopicPartition, PartitionReassignment> listed = admin.listPartitionReassignments().reassignments()
                    .get(30, TimeUnit.SECONDS);
                List<Integer> moving = List.of(9, placed.get(0), placed.get(1));
                assertEquals(moving, listed.get(tp).replicas());
                assertEquals(List.of(9), listed.get(tp).addingReplicas());
                assertEquals(List.of(placed.get(1)), listed.get(tp).removingReplicas());
                // Metadata may come from a broker whose view is a moment behind the controller's
                awaitDescribed(admin, tp, info -> replicaIds(info).equals(moving), "every broker to show the moving replicas");
                // adding a partition rewrites the topic's assignment: the move stays
                admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(2))).all().get(30, TimeUnit.SECONDS);
                Conditions.waitUntil(() -> CLUSTER.broker(0).cluster().metadata().snapshot().partitionCount(topic) == 2,
                    "the second partition");
                assertEquals(List.of(9), admin.listPartitionReassignments().reassignments().get(30, TimeUnit.SECONDS)
                    .get(tp).addingReplicas());

                admin.alterPartitionReassignments(Map.of(tp, Optional.empty())).all().get(30, TimeUnit.SECONDS);
                awaitReplicas(admin, tp, placed, placed);
                assertFalse(admin.listPartitionReassignments().reassignments().get(30, TimeUnit.SECONDS).containsKey(tp));
                assertEquals(10, consume(topic).size());
            } finally {
                zk.delete().forPath(ClusterPaths.broker(9));
            }
        }
    }

    @Test
    public void aMoveStartedOnOneControllerIsChangedAndFinishedOnTheNext() throws Exception {
        String topic = "handed-over";
        TopicPartition tp = new TopicPartition(topic, 0);
        int controller = CLUSTER.broker(0).cluster().metadata().snapshot().controllerId();
        int x = (controller + 1) % 3;
        int y = (controller + 2) % 3;
        try (Admin admin = Admin.create(CLUSTER.clientProps());
             CuratorFramework zk = CuratorFrameworkFactory.newClient(ZOOKEEPER.connectString(), new RetryOneTime(100))) {
            create(admin, topic, 1);
            reassign(admin, tp, List.of(x));
            awaitReplicas(admin, tp, List.of(x), List.of(x));
            produce(topic, 0, 100);
            zk.start();
            registerNeverFetchingBroker(zk);
            try {
                reassign(admin, tp, List.of(9, x));
                CLUSTER.stop(controller);
                Conditions.waitUntil(() -> {
                    int now = CLUSTER.broker(x).cluster().metadata().snapshot().controllerId();
                    return now == x || now == y;
                }, "a new controller");
                // the move is in ZooKeeper: the new controller lists it and takes the change of target
                Map<TopicPartition, PartitionReassignment> listed = admin.listPartitionReassignments().reassignments()
                    .get(30, TimeUnit.SECONDS);
                assertEquals(List.of(9, x), listed.get(tp).replicas());
                assertEquals(List.of(9), listed.get(tp).addingReplicas());
                reassign(admin, tp, List.of(y));
                awaitReplicas(admin, tp, List.of(y), List.of(y));
                assertEquals(100, consume(topic).size());
            } finally {
                zk.delete().forPath(ClusterPaths.broker(9));
                CLUSTER.start(controller);
            }
        }
    }

    @Test
    public void aDeadBrokersReplicaIsReplacedAndItsLogDeletedWhenItReturns() throws Exception {
        String topic = "replaced";
        TopicPartition tp = new TopicPartition(topic, 0);
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            List<Integer> placed = create(admin, topic, 2);
            int kept = placed.get(0);
            int dead = placed.get(1);
            int spare = 3 - kept - dead;
            produce(topic, 0, 200);
            CLUSTER.crash(dead);
            try {
                awaitDescribed(admin, tp, info -> sorted(info.isr()).equals(List.of(kept)), "the dead broker to leave the ISR");
                reassign(admin, tp, List.of(kept, spare));
                awaitReplicas(admin, tp, List.of(kept, spare), List.of(kept, spare));
                produce(topic, 200, 100);
            } finally {
                CLUSTER.start(dead);
            }
            // the returning broker finds it no longer holds the partition and deletes its copy
            awaitLogDeleted(dead, tp);
            assertEquals(300, consume(topic).size());
            assertEquals(List.of(kept, spare), replicaIds(describe(admin, tp)));
        }
    }

    @Test
    public void invalidMovesAreRefusedAsOnKafka() throws Exception {
        String topic = "refused";
        TopicPartition tp = new TopicPartition(topic, 0);
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            List<Integer> placed = create(admin, topic, 2);
            int other = 3 - placed.get(0) - placed.get(1);
            assertFails(InvalidReplicaAssignmentException.class, admin, tp, Optional.of(List.of(placed.get(0), 7)), true);
            assertFails(InvalidReplicaAssignmentException.class, admin, tp, Optional.of(List.of(other, other)), true);
            assertFails(InvalidReplicationFactorException.class, admin, tp, Optional.of(List.of(other)), false);
            assertFails(NoReassignmentInProgressException.class, admin, tp, Optional.empty(), true);
            assertFails(UnknownTopicOrPartitionException.class, admin, new TopicPartition(topic, 5), Optional.of(List.of(0)),
                true);
            assertEquals(placed, replicaIds(describe(admin, tp)));
        }
        // Kafka's AdminClient refuses an empty list itself; other clients may send one
        int controller = CLUSTER.broker(0).cluster().metadata().snapshot().controllerId();
        AlterPartitionReassignmentsResponse empty = alterRaw(controller, topic, List.of());
        assertEquals(Errors.NONE, empty.error());
        assertEquals(Errors.INVALID_REPLICA_ASSIGNMENT, empty.responses().get(0).partitions().get(0).error());
        AlterPartitionReassignmentsResponse elsewhere = alterRaw((controller + 1) % 3, topic, List.of(2));
        assertEquals(Errors.NOT_CONTROLLER, elsewhere.error());
        assertEquals(Errors.NOT_CONTROLLER, elsewhere.responses().get(0).partitions().get(0).error());
    }

    private static AlterPartitionReassignmentsResponse alterRaw(int broker, String topic, List<Integer> replicas)
        throws Exception {
        try (RawClient client = new RawClient(CLUSTER.broker(broker).boundPort())) {
            return client.call(new AlterPartitionReassignmentsRequest(1_000, true, List.of(
                new AlterPartitionReassignmentsRequest.ReassignableTopic(topic, List.of(
                    new AlterPartitionReassignmentsRequest.ReassignablePartition(0, replicas))))), (short) 1);
        }
    }

    /** Registers broker 9, which never fetches: a move to it cannot finish. */
    private static void registerNeverFetchingBroker(CuratorFramework zk) throws Exception {
        zk.create().withMode(CreateMode.EPHEMERAL).forPath(ClusterPaths.broker(9),
            "{\"version\":1,\"host\":\"127.0.0.1\",\"port\":1,\"rack\":null,\"timestamp\":0}".getBytes(StandardCharsets.UTF_8));
        for (int id = 0; id < 3; id++) {
            Broker broker = CLUSTER.broker(id);
            if (broker != null) {
                Conditions.waitUntil(() -> broker.cluster().metadata().snapshot().broker(9).isPresent(), "broker 9 to be seen");
            }
        }
    }

    /** Creates a topic of one partition with {@code replicas} replicas and returns them, as the controller placed them. */
    private static List<Integer> create(Admin admin, String topic, int replicas) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) replicas))).all().get(30, TimeUnit.SECONDS);
        CLUSTER.awaitLogs(topic, 1);
        return replicaIds(describe(admin, new TopicPartition(topic, 0)));
    }

    private static void awaitLogDeleted(int broker, TopicPartition tp) {
        Conditions.waitUntil(() -> CLUSTER.broker(broker).logManager().getLog(tp.topic(), tp.partition()).isEmpty(),
            "broker " + broker + " to delete its log of " + tp);
    }

    private static void reassign(Admin admin, TopicPartition tp, List<Integer> replicas) throws Exception {
        admin.alterPartitionReassignments(Map.of(tp, Optional.of(new NewPartitionReassignment(replicas)))).all()
            .get(30, TimeUnit.SECONDS);
    }

    private static void assertFails(Class<? extends Throwable> expected, Admin admin, TopicPartition tp,
                                    Optional<List<Integer>> target, boolean allowFactorChange) {
        ExecutionException failure = assertThrows(ExecutionException.class, () -> admin.alterPartitionReassignments(
            Map.of(tp, target.map(NewPartitionReassignment::new)),
            new AlterPartitionReassignmentsOptions().allowReplicationFactorChange(allowFactorChange)).all().get(30, TimeUnit.SECONDS));
        assertTrue(String.valueOf(failure.getCause()), expected.isInstance(failure.getCause()));
    }

    /** Waits until the partition has these replicas and in-sync replicas, and no move of it is listed. */
    private static void awaitReplicas(Admin admin, TopicPartition tp, List<Integer> replicas, List<Integer> isr) {
        awaitDescribed(admin, tp, info -> replicaIds(info).equals(replicas)
            && sorted(info.isr()).equals(isr.stream().sorted().toList()) && !listed(admin).containsKey(tp),
            tp + " on replicas " + replicas + " with ISR " + isr);
    }

    /** Waits up to a minute until a Metadata answer about {@code tp} passes {@code check}. */
    private static void awaitDescribed(Admin admin, TopicPartition tp, Predicate<TopicPartitionInfo> check, String what) {
        Conditions.waitUntil(() -> {
            try {
                return check.test(describe(admin, tp));
            } catch (Exception e) {
                return false;
            }
        }, 60_000, what);
    }

    private static Map<TopicPartition, PartitionReassignment> listed(Admin admin) {
        try {
            return admin.listPartitionReassignments().reassignments().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<Integer> sorted(List<Node> nodes) {
        return nodes.stream().map(Node::id).sorted().toList();
    }

    private static List<Integer> replicaIds(TopicPartitionInfo info) {
        return info.replicas().stream().map(Node::id).toList();
    }

    private static TopicPartitionInfo describe(Admin admin, TopicPartition tp) throws Exception {
        TopicDescription description = admin.describeTopics(List.of(tp.topic())).allTopicNames().get(30, TimeUnit.SECONDS)
            .get(tp.topic());
        return description.partitions().get(tp.partition());
    }

    private static void produce(String topic, int from, int count) throws Exception {
        Properties props = CLUSTER.clientProps();
        props.put("acks", "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = from; i < from + count; i++) {
                producer.send(new ProducerRecord<>(topic, 0, null, "record-" + i));
            }
            producer.flush();
        }
    }

    private static List<ConsumerRecord<String, String>> consume(String topic) {
        Properties props = CLUSTER.clientProps();
        props.put("auto.offset.reset", "earliest");
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            TopicPartition tp = new TopicPartition(topic, 0);
            consumer.assign(List.of(tp));
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            long deadline = System.currentTimeMillis() + 30_000;
            while (consumer.position(tp) < end && System.currentTimeMillis() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }
}
