package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;

import io.millrace.broker.group.GroupConfig;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * A transaction open when the broker coordinating it, and its offsets' group, stops: the other
 * broker loads the transactional id from the replicated {@code __transaction_state} and the
 * transaction's pending offsets from the replicated {@code __consumer_offsets} (none of them in the
 * offset registry yet), and the producer's commit there makes both its records and its offsets count.
 */
public class TransactionCoordinatorMoveTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 2, Map.of(
        "transaction.state.log.num.partitions", 3,
        "transaction.state.log.replication.factor", 2,
        "transaction.state.log.min.isr", 1,
        GroupConfig.OFFSETS_TOPIC_NUM_PARTITIONS_CONFIG, 3,
        GroupConfig.OFFSETS_REGISTRY_WRITE_INTERVAL_MS_CONFIG, 3_600_000));

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    private static final String TRANSACTIONAL_ID = "mover";

    @Test(timeout = 120_000)
    public void anOpenTransactionCommitsAtTheNextCoordinatorWithItsOffsets() throws Exception {
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            admin.createTopics(List.of(new NewTopic("moved-out", 2, (short) 2), new NewTopic("moved-in", 1, (short) 2)))
                .all().get(30, TimeUnit.SECONDS);
        }
        CLUSTER.awaitLogs("moved-out", 2);
        CLUSTER.awaitLogs("moved-in", 1);
        Properties props = CLUSTER.clientProps();
        props.put("transactional.id", TRANSACTIONAL_ID);
        props.put("reconnect.backoff.max.ms", "200");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
            new ByteArraySerializer())) {
            producer.initTransactions();
            int coordinator = CLUSTER.leader("__transaction_state", partitionFor(TRANSACTIONAL_ID, 3));
            String group = groupCoordinatedBy(coordinator);
            producer.beginTransaction();
            for (int i = 0; i < 20; i++) {
                producer.send(new ProducerRecord<>("moved-out", utf8("moved-" + i)));
            }
            producer.sendOffsetsToTransaction(Map.of(new TopicPartition("moved-in", 0), new OffsetAndMetadata(42)),
                new ConsumerGroupMetadata(group));

            CLUSTER.stop(coordinator);
            producer.commitTransaction();

            assertEquals(20, committedValues("moved-out").size());
            try (Admin admin = Admin.create(CLUSTER.clientProps())) {
                assertEquals(new OffsetAndMetadata(42), admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS).get(new TopicPartition("moved-in", 0)));
            }
        }
    }

    /** A group whose partition of {@code __consumer_offsets} {@code broker} leads. */
    private static String groupCoordinatedBy(int broker) {
        for (int i = 0; ; i++) {
            String group = "moved-group-" + i;
            if (CLUSTER.broker(broker).groupCoordinator().findCoordinator(group, 10_000) == broker) {
                return group;
            }
        }
    }

    private static int partitionFor(String key, int partitions) {
        int hash = key.hashCode();
        return (hash == Integer.MIN_VALUE ? 0 : Math.abs(hash)) % partitions;
    }

    private static Set<String> committedValues(String topic) {
        Properties props = CLUSTER.clientProps();
        props.put("isolation.level", "read_committed");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            Set<String> values = new HashSet<>();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(new String(record.value(), StandardCharsets.UTF_8));
                }
            }
            return values;
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
