package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.CreateTopicsRequest;
import io.millrace.common.protocol.message.CreateTopicsResponse;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.InvalidReplicaAssignmentException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * Kafka's AdminClient creating topics with the replicas of each partition chosen (CreateTopics'
 * assignments, `kafka-topics --replica-assignment`) on three Millrace brokers: the replicas as
 * given, the first of each leading; and the assignments Kafka refuses, refused, creating nothing.
 */
public class ManualAssignmentTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 3, Map.of());

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    @Test
    public void eachPartitionGetsTheReplicasChosenAndItsFirstLeads() throws Exception {
        Map<Integer, List<Integer>> chosen = Map.of(0, List.of(2, 0), 1, List.of(0, 1), 2, List.of(1, 2));
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            CreateTopicsResult created = admin.createTopics(List.of(new NewTopic("chosen", chosen)));
            created.all().get(30, TimeUnit.SECONDS);
            assertEquals(3, (int) created.numPartitions("chosen").get());
            assertEquals(2, (int) created.replicationFactor("chosen").get());
            CLUSTER.awaitLogs("chosen", 3);
            TopicDescription description = admin.describeTopics(List.of("chosen")).allTopicNames().get(30, TimeUnit.SECONDS)
                .get("chosen");
            for (TopicPartitionInfo partition : description.partitions()) {
                List<Integer> replicas = partition.replicas().stream().map(Node::id).toList();
                assertEquals(chosen.get(partition.partition()), replicas);
                assertEquals((int) replicas.get(0), partition.leader().id());
            }
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(CLUSTER.clientProps(), new StringSerializer(),
                new StringSerializer())) {
                for (int p = 0; p < 3; p++) {
                    assertEquals(0, producer.send(new ProducerRecord<>("chosen", p, null, "first")).get().offset());
                }
            }
        }
    }

    @Test
    public void assignmentsKafkaRefusesAreRefusedAndCreateNothing() throws Exception {
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            assertRefused(admin, "gapped", Map.of(0, List.of(0), 2, List.of(1)), "consecutive");
            assertRefused(admin, "uneven", Map.of(0, List.of(0, 1), 1, List.of(1)), "Inconsistent replication factor");
            assertRefused(admin, "doubled", Map.of(0, List.of(1, 1)), "Duplicate brokers");
            assertRefused(admin, "absent", Map.of(0, List.of(0, 7)), "Unknown broker(s) in replica assignment: [7]");
            for (String topic : List.of("gapped", "uneven", "doubled", "absent")) {
                assertFalse(admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(topic));
            }
        }
        // Kafka's AdminClient cannot send a count beside assignments; another client can
        try (RawClient client = new RawClient(CLUSTER.broker(0).boundPort())) {
            CreateTopicsResponse answer = client.call(new CreateTopicsRequest(List.of(new CreateTopicsRequest.CreatableTopic(
                "both", 2, (short) -1, List.of(new CreateTopicsRequest.ReplicaAssignment(0, List.of(0))), List.of())),
                30_000, false), (short) 7);
            assertEquals(Errors.INVALID_REQUEST.code(), answer.topics().get(0).errorCode());
        }
    }

    private static void assertRefused(Admin admin, String topic, Map<Integer, List<Integer>> assignment, String reason) {
        ExecutionException failure = assertThrows(ExecutionException.class,
            () -> admin.createTopics(List.of(new NewTopic(topic, assignment))).all().get(30, TimeUnit.SECONDS));
        assertTrue(String.valueOf(failure.getCause()), failure.getCause() instanceof InvalidReplicaAssignmentException);
        assertTrue(failure.getCause().getMessage(), failure.getCause().getMessage().contains(reason));
    }
}
