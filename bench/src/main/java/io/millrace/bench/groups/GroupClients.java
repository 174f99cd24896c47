package io.millrace.bench.groups;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Kafka's clients as every scenario of the group comparison sets them up, the same on either broker;
 * the topic helpers serve the cost curves too.
 */
public final class GroupClients {

    static final int VALUE_BYTES = 100;

    private GroupClients() {
    }

    /**
     * A group member's settings: Kafka's defaults (the classic group protocol, which both brokers
     * coordinate, session timeout 45 s, assignors range then cooperative-sticky) except no auto-commit
     * (the scenarios commit only when they measure commits), reading from the earliest offset, the
     * heartbeat interval asked for, and {@code assignor} when not null.
     */
    static Map<String, Object> consumer(String bootstrap, String group, String clientId, int heartbeatMs, String assignor) {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, heartbeatMs);
        if (assignor != null) {
            props.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, assignor);
        }
        return props;
    }

    static List<TopicPartition> partitions(String topic, int count) {
        List<TopicPartition> all = new ArrayList<>();
        for (int p = 0; p < count; p++) {
            all.add(new TopicPartition(topic, p));
        }
        return all;
    }

    /** Creates {@code topic} and returns once every partition has a leader. */
    static void createTopic(String bootstrap, String topic, int partitions) throws Exception {
        createTopic(bootstrap, topic, partitions, Map.of());
    }

    /** Creates {@code topic} with the topic settings {@code configs} and returns once every partition has a leader. */
    public static void createTopic(String bootstrap, String topic, int partitions, Map<String, String> configs)
            throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1).configs(configs)))
                .all().get(60, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!ready(admin, topic, partitions)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Topic " + topic + " has no leader for every partition after 60 s");
                }
                Thread.sleep(50);
            }
        }
    }

    private static boolean ready(Admin admin, String topic, int partitions) throws Exception {
        try {
            TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic);
            return d.partitions().size() == partitions && d.partitions().stream().map(TopicPartitionInfo::leader)
                .allMatch(java.util.Objects::nonNull);
        } catch (ExecutionException notYet) {
            return false;
        }
    }

    /** Writes {@code perPartition} records of {@value #VALUE_BYTES} bytes to each partition. */
    static void fill(String bootstrap, String topic, int partitions, int perPartition) throws Exception {
        byte[] value = new byte[VALUE_BYTES];
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap,
                "linger.ms", 5), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int p = 0; p < partitions; p++) {
                for (int i = 0; i < perPartition; i++) {
                    producer.send(new ProducerRecord<>(topic, p, null, value));
                }
            }
            producer.flush();
        }
    }
}
