package io.millrace.broker.replica;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.cluster.ClusterSnapshot;
import io.millrace.broker.cluster.PartitionState;
import io.millrace.broker.log.Log;
import io.millrace.broker.server.Broker;
import io.millrace.broker.tools.LocalCluster;
import io.millrace.testkit.Conditions;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import javax.management.ObjectName;
import org.junit.After;
import org.junit.Test;

/**
 * Three brokers, a topic with three replicas and min.insync.replicas=2, written with acks=all by
 * Kafka's producer: every replica's log ends up byte for byte the same; a stopped follower leaves
 * the in-sync replicas and acks=all goes on with two; restarted, it catches up and rejoins; with the
 * leader stopped, a new leader from the ISR serves every acknowledged record.
 */
public class ReplicationIT {

    private static final String TOPIC = "replicated";
    private static final long LAG_MS = 3_000;
    private static final long WAIT_MS = 60_000;

    private LocalCluster cluster;
    private KafkaProducer<String, String> producer;
    private final List<String> acknowledged = new ArrayList<>();

    /** Three brokers with {@code replica.lag.time.max.ms} = {@code lagMs}, and the topic led with all three in sync. */
    private void start(long lagMs) throws Exception {
        cluster = LocalCluster.start(3, Map.of(
            ReplicaConfig.REPLICA_LAG_TIME_MAX_MS_CONFIG, lagMs,
            ReplicaConfig.REPLICA_FETCH_BACKOFF_MS_CONFIG, 100));
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 3).configs(Map.of("min.insync.replicas", "2"))))
                .all().get();
        }
        Conditions.waitUntil(() -> isr().size() == 3 && leader() >= 0, WAIT_MS, "the topic is led with three in sync");
    }

    @After
    public void tearDown() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Kafka's producer with {@code acks}; retrying until {@code deliveryTimeoutMs}, or not at all when 0. */
    private KafkaProducer<String, String> producer(String acks, int deliveryTimeoutMs) {
        Properties props = new Properties();
        props.put("bootstrap.servers", cluster.bootstrapServers());
        props.put("acks", acks);
        props.put("enable.idempotence", "false");
        props.put("max.in.flight.requests.per.connection", "1");
        props.put("linger.ms", "5");
        props.put("request.timeout.ms", "10000");
        props.put("delivery.timeout.ms", String.valueOf(Math.max(deliveryTimeoutMs, 30_000)));
        if (deliveryTimeoutMs == 0) {
            props.put("retries", "0");
        }
        props.put("retry.backoff.ms", "100");
        props.put("metadata.max.age.ms", "1000");
        return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    @Test
    public void acknowledgedRecordsSurviveAFollowerAndTheLeaderGoingAway() throws Exception {
        start(LAG_MS);
        producer = producer("all", 120_000);
        produce(0, 200);
        awaitLogsEqual();

        int leader = leader();
        int follower = (leader + 1) % 3;
        cluster.stopBroker(follower);
        // acks=all waits until the follower, behind the new records, has been out of sync for the lag time
        produce(200, 200);
        Conditions.waitUntil(() -> isr().size() == 2, WAIT_MS, "broker " + follower + " leaves the ISR");
        assertEquals(1L, underReplicated(leader));

        cluster.startBroker(follower);
        Conditions.waitUntil(() -> isr().size() == 3, WAIT_MS, "broker " + follower + " rejoins the ISR");
        awaitLogsEqual();
        Conditions.waitUntil(() -> underReplicated(leader) == 0, WAIT_MS, "the leader counts no under-replicated partition");

        cluster.stopBroker(leader);
        Conditions.waitUntil(() -> leader() >= 0 && leader() != leader, WAIT_MS, "a new leader is elected");
        produce(400, 100);
        assertEquals(acknowledged, readAll(acknowledged.size()));
    }

    @Test
    public void acksAllNeedsMinInsyncReplicas() throws Exception {
        start(LAG_MS);
        int leader = leader();
        cluster.stopBroker((leader + 1) % 3);
        cluster.stopBroker((leader + 2) % 3);
        try (KafkaProducer<String, String> leaderOnly = producer("1", 30_000)) {
            leaderOnly.send(new ProducerRecord<>(TOPIC, "the followers never get this")).get();
        }
        Conditions.waitUntil(() -> isr().size() == 1, WAIT_MS, "the leader alone is in sync");
        producer = producer("all", 0);
        ExecutionException refused = expectFailure(producer.send(new ProducerRecord<>(TOPIC, "refused")));
        assertTrue(String.valueOf(refused.getCause()), refused.getCause() instanceof NotEnoughReplicasException);
        assertEquals("nothing more was appended", 1, log(cluster.broker(leader)).logEndOffset());
    }

    @Test
    public void aTopicCreatedAgainUnderTheSameNameIsReplicatedAfresh() throws Exception {
        start(LAG_MS);
        producer = producer("all", 120_000);
        produce(0, 20);
        awaitLogsEqual();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
            admin.deleteTopics(List.of(TOPIC)).all().get();
            Conditions.waitUntil(() -> !snapshot().hasTopic(TOPIC), WAIT_MS, "the topic is gone");
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 3).configs(Map.of("min.insync.replicas", "2"))))
                .all().get();
        }
        Conditions.waitUntil(() -> isr().size() == 3 && leader() >= 0, WAIT_MS, "the new topic is led with three in sync");
        acknowledged.clear();
        produce(100, 10);
        awaitLogsEqual();
        for (Broker broker : running()) {
            assertEquals("broker " + broker.brokerId(), 10, log(broker).logEndOffset());
        }
        assertEquals(acknowledged, readAll(acknowledged.size()));
    }

    private static ExecutionException expectFailure(Future<RecordMetadata> send) throws InterruptedException {
        try {
            send.get();
            throw new AssertionError("acks=all succeeded with one in-sync replica of min.insync.replicas=2");
        } catch (ExecutionException e) {
            return e;
        }
    }

    private void produce(int from, int count) throws Exception {
        List<Future<RecordMetadata>> sends = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            sends.add(producer.send(new ProducerRecord<>(TOPIC, "record-" + i)));
        }
        for (int i = 0; i < sends.size(); i++) {
            sends.get(i).get();
            acknowledged.add("record-" + (from + i));
        }
    }

    private List<String> readAll(int expected) {
        Properties props = new Properties();
        props.put("bootstrap.servers", cluster.bootstrapServers());
        props.put("auto.offset.reset", "earliest");
        props.put("enable.auto.commit", "false");
        List<String> read = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
            new StringDeserializer())) {
            consumer.assign(List.of(new TopicPartition(TOPIC, 0)));
            long deadline = System.currentTimeMillis() + WAIT_MS;
            while (read.size() < expected && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    read.add(r.value());
                }
            }
        }
        return read;
    }

    /** Every running broker's log of the partition has the same bytes. */
    private void awaitLogsEqual() throws IOException {
        Conditions.waitUntil(() -> running().stream().map(ReplicationIT::logEnd).distinct().count() == 1,
            WAIT_MS, "every replica has the same log end offset");
        List<Broker> brokers = running();
        ByteBuffer first = bytes(log(brokers.get(0)));
        for (Broker broker : brokers.subList(1, brokers.size())) {
            assertEquals("broker " + broker.brokerId() + "'s log", first, bytes(log(broker)));
        }
        assertNotEquals(0, first.remaining());
    }

    private static ByteBuffer bytes(Log log) throws IOException {
        return log.read(log.logStartOffset(), Integer.MAX_VALUE, true).readFully();
    }

    private List<Broker> running() {
        List<Broker> running = new ArrayList<>();
        for (int i = 0; i < cluster.brokerCount(); i++) {
            try {
                running.add(cluster.broker(i));
            } catch (IllegalStateException stopped) {
                // not running
            }
        }
        return running;
    }

    private static long logEnd(Broker broker) {
        return broker.logManager().getLog(TOPIC, 0).map(Log::logEndOffset).orElse(-1L);
    }

    private static Log log(Broker broker) {
        return broker.logManager().getLog(TOPIC, 0).orElseThrow();
    }

    /** The leader's {@code under-replicated-partitions} gauge, over JMX. */
    private static long underReplicated(int brokerId) {
        try {
            return (Long) ManagementFactory.getPlatformMBeanServer().getAttribute(
                new ObjectName("io.millrace:type=replica-manager,broker=" + brokerId), "under-replicated-partitions");
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private ClusterSnapshot snapshot() {
        return running().get(0).cluster().metadata().snapshot();
    }

    private int leader() {
        return snapshot().leader(TOPIC, 0);
    }

    private List<Integer> isr() {
        return snapshot().partitionState(TOPIC, 0).map(PartitionState::isr).orElse(List.of());
    }
}
