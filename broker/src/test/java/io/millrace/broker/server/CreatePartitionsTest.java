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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreatePartitionsOptions;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.InvalidPartitionsException;
import org.apache.kafka.common.errors.InvalidReplicaAssignmentException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/** Kafka's AdminClient createPartitions against two Millrace brokers, and clients using the new partitions. */
public class CreatePartitionsTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 2, Map.of());

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    private static Admin admin() {
        return Admin.create(CLUSTER.clientProps());
    }

    private static void create(Admin admin, String topic, int partitions) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
        CLUSTER.awaitLogs(topic, partitions);
    }

    private static void grow(Admin admin, String topic, NewPartitions partitions) throws Exception {
        admin.createPartitions(Map.of(topic, partitions)).all().get(30, TimeUnit.SECONDS);
    }

    private static List<TopicPartitionInfo> describe(Admin admin, String topic) throws Exception {
        TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic);
        return description.partitions();
    }

    private static Throwable failure(Admin admin, String topic, NewPartitions partitions, CreatePartitionsOptions options) {
        ExecutionException e = assertThrows(ExecutionException.class,
            () -> admin.createPartitions(Map.of(topic, partitions), options).all().get(30, TimeUnit.SECONDS));
        return e.getCause();
    }

    private static Properties clientProps() {
        Properties props = CLUSTER.clientProps();
        props.put("key.serializer", StringSerializer.class.getName());
        props.put("value.serializer", StringSerializer.class.getName());
        props.put("key.deserializer", StringDeserializer.class.getName());
        props.put("value.deserializer", StringDeserializer.class.getName());
        props.put("metadata.max.age.ms", "500");
        return props;
    }

    @Test
    public void newPartitionsAreSpreadOverTheBrokersAndAProducerAndAGroupConsumerUseThem() throws Exception {
        String topic = "growing";
        try (Admin admin = admin()) {
            create(admin, topic, 2);
            Properties props = clientProps();
            props.put("group.id", "growing-readers");
            props.put("auto.offset.reset", "earliest");
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props);
                 KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
                consumer.subscribe(List.of(topic));
                Conditions.waitUntil(() -> {
                    consumer.poll(Duration.ofMillis(100));
                    return consumer.assignment().size() == 2;
                }, 30_000, "the consumer owns both partitions");

                grow(admin, topic, NewPartitions.increaseTo(5));
                List<TopicPartitionInfo> partitions = describe(admin, topic);
                assertEquals(5, partitions.size());
                Set<Integer> leaders = new HashSet<>();
                partitions.forEach(p -> leaders.add(p.leader().id()));
                assertEquals("round-robin over both brokers", Set.of(0, 1), leaders);
                CLUSTER.awaitLogs(topic, 5);

                for (int p = 0; p < 5; p++) {
                    producer.send(new ProducerRecord<>(topic, p, "k" + p, "to partition " + p)).get(30, TimeUnit.SECONDS);
                }
                Set<Integer> read = new HashSet<>();
                Conditions.waitUntil(() -> {
                    for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(100))) {
                        assertEquals("to partition " + record.partition(), record.value());
                        read.add(record.partition());
                    }
                    return read.size() == 5;
                }, 30_000, "the group consumer reads a record from every partition, old and new");
                assertEquals(5, consumer.assignment().size());
            }
        }
    }

    @Test
    public void aPartitionCountIsNeverLowered() throws Exception {
        try (Admin admin = admin()) {
            create(admin, "no-shrinking", 3);
            Throwable lower = failure(admin, "no-shrinking", NewPartitions.increaseTo(2), new CreatePartitionsOptions());
            assertTrue(lower.toString(), lower instanceof InvalidPartitionsException);
            assertEquals("Topic currently has 3 partitions, which is higher than the requested 2.", lower.getMessage());
            Throwable same = failure(admin, "no-shrinking", NewPartitions.increaseTo(3), new CreatePartitionsOptions());
            assertTrue(same.toString(), same instanceof InvalidPartitionsException);
            Throwable unknown = failure(admin, "no-such-topic", NewPartitions.increaseTo(3), new CreatePartitionsOptions());
            assertTrue(unknown.toString(), unknown instanceof UnknownTopicOrPartitionException);
            assertEquals(3, describe(admin, "no-shrinking").size());
        }
    }

    @Test
    public void validateOnlyChecksAndChangesNothing() throws Exception {
        try (Admin admin = admin()) {
            create(admin, "validated", 2);
            admin.createPartitions(Map.of("validated", NewPartitions.increaseTo(6)), new CreatePartitionsOptions().validateOnly(true))
                .all().get(30, TimeUnit.SECONDS);
            assertEquals(2, describe(admin, "validated").size());
            Throwable lower = failure(admin, "validated", NewPartitions.increaseTo(1), new CreatePartitionsOptions().validateOnly(true));
            assertTrue(lower.toString(), lower instanceof InvalidPartitionsException);
        }
    }

    @Test
    public void aManualAssignmentPlacesEachNewPartitionOnItsBroker() throws Exception {
        try (Admin admin = admin()) {
            create(admin, "placed", 1);
            grow(admin, "placed", NewPartitions.increaseTo(3, List.of(List.of(1), List.of(1))));
            List<TopicPartitionInfo> partitions = describe(admin, "placed");
            assertEquals(1, partitions.get(1).leader().id());
            assertEquals(1, partitions.get(2).leader().id());
            CLUSTER.awaitLogs("placed", 3);
            Throwable unknownBroker = failure(admin, "placed", NewPartitions.increaseTo(4, List.of(List.of(7))),
                new CreatePartitionsOptions());
            assertTrue(unknownBroker.toString(), unknownBroker instanceof InvalidReplicaAssignmentException);
            Throwable twoCopies = failure(admin, "placed", NewPartitions.increaseTo(4, List.of(List.of(0, 1))),
                new CreatePartitionsOptions());
            assertTrue(twoCopies.toString(), twoCopies instanceof InvalidReplicaAssignmentException);
            Throwable wrongCount = failure(admin, "placed", NewPartitions.increaseTo(5, List.of(List.of(0))),
                new CreatePartitionsOptions());
            assertTrue(wrongCount.toString(), wrongCount instanceof InvalidReplicaAssignmentException);
            assertEquals(3, describe(admin, "placed").size());
        }
    }

    @Test
    public void newPartitionsOfAReplicatedTopicGetTheReplicasTheAssignmentNames() throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic("mirrored", 1, (short) 2))).all().get(30, TimeUnit.SECONDS);
            grow(admin, "mirrored", NewPartitions.increaseTo(3, List.of(List.of(1, 0), List.of(0, 1))));
            List<TopicPartitionInfo> partitions = describe(admin, "mirrored");
            assertEquals(List.of(1, 0), partitions.get(1).replicas().stream().map(n -> n.id()).toList());
            assertEquals(List.of(0, 1), partitions.get(2).replicas().stream().map(n -> n.id()).toList());
            assertEquals(1, partitions.get(1).leader().id());
            grow(admin, "mirrored", NewPartitions.increaseTo(4));
            assertEquals(2, describe(admin, "mirrored").get(3).replicas().size());
            Throwable oneCopy = failure(admin, "mirrored", NewPartitions.increaseTo(5, List.of(List.of(0))),
                new CreatePartitionsOptions());
            assertTrue(oneCopy.toString(), oneCopy instanceof InvalidReplicaAssignmentException);
        }
    }
}
