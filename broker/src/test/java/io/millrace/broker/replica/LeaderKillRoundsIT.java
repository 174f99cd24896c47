package io.millrace.broker.replica;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Three brokers in processes of their own, a topic of three partitions with three replicas each and
 * {@code min.insync.replicas=2}: Kafka's idempotent producer writes with {@code acks=all} without
 * pause while, ten times, the leader of one partition is killed with SIGKILL and started again at
 * once. Every record the producer saw acknowledged is then read back exactly once, at the offset it
 * was acknowledged with, and each partition holds the producer's records in the order it sent them,
 * none twice.
 */
public class LeaderKillRoundsIT {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderKillRoundsIT.class);
    private static final String TOPIC = "kill-rounds";
    private static final int PARTITIONS = 3;
    private static final int ROUNDS = 10;
    private static final int SESSION_MS = 6_000;

    @Rule
    public final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();
    @Rule
    public final TemporaryFolder temp = new TemporaryFolder();

    private BrokerProcesses brokers;
    /** Acknowledged records: value -> the offset the broker acknowledged it at. */
    private final Map<String, Long> acknowledged = new ConcurrentHashMap<>();
    private final AtomicReference<Exception> fatal = new AtomicReference<>();
    private final AtomicLong failedSends = new AtomicLong();
    private volatile boolean producing = true;

    @Before
    public void setUp() throws Exception {
        brokers = new BrokerProcesses(3, zookeeper.connectString(), temp.newFolder("cluster").toPath(), Map.of(
            "zookeeper.session.timeout.ms", Integer.toString(SESSION_MS),
            "replica.lag.time.max.ms", "5000",
            "leader.imbalance.check.interval.seconds", "5"));
        brokers.startAll();
    }

    @After
    public void tearDown() {
        producing = false;
        if (brokers != null) {
            brokers.close();
        }
    }

    @Test(timeout = 600_000)
    public void everyAcknowledgedRecordSurvivesTenLeaderKillsExactlyOnceAndInOrder() throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", brokers.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 3)
                .configs(Map.of("min.insync.replicas", "2")))).all().get(60, TimeUnit.SECONDS);
            awaitFullIsr(admin);
            Thread producer = new Thread(this::produce, "kill-rounds-producer");
            producer.start();
            for (int round = 1; round <= ROUNDS; round++) {
                int partition = round % PARTITIONS;
                int leader = leaderOf(admin, partition);
                long before = acknowledged.size();
                brokers.kill(leader);
                LOG.info("Round {}: killed broker {}, the leader of partition {} ({} records acknowledged)",
                    round, leader, partition, before);
                Conditions.waitUntil(() -> acknowledged.size() > before + 200, 60_000,
                    "acknowledgements going on without broker " + leader);
                brokers.start(leader);
                awaitFullIsr(admin);
                assertNull("the producer failed", fatal.get());
            }
            long beforeEnd = acknowledged.size();
            Conditions.waitUntil(() -> acknowledged.size() > beforeEnd + 200, 60_000, "acknowledgements after the last round");
            producing = false;
            producer.join(180_000);
            assertNull("the producer failed", fatal.get());
        }
        LOG.info("{} records acknowledged, {} sends failed", acknowledged.size(), failedSends.get());
        assertEachAcknowledgedRecordOnceInOrder(readAll());
    }

    private void produce() {
        Properties props = new Properties();
        props.put("bootstrap.servers", brokers.bootstrapServers());
        props.put("acks", "all");
        props.put("enable.idempotence", "true");
        props.put("max.in.flight.requests.per.connection", "5");
        props.put("linger.ms", "5");
        props.put("request.timeout.ms", "5000");
        props.put("delivery.timeout.ms", "120000");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            long[] next = new long[PARTITIONS];
            for (long i = 0; producing; i++) {
                int partition = (int) (i % PARTITIONS);
                String value = partition + ":" + next[partition]++;
                producer.send(new ProducerRecord<>(TOPIC, partition, null, value), (md, e) -> {
                    if (e == null) {
                        acknowledged.put(value, md.offset());
                    } else {
                        failedSends.incrementAndGet();
                    }
                });
                if (i % 50 == 49) {
                    Thread.sleep(5);
                }
            }
            producer.flush();
        } catch (Exception e) {
            fatal.set(e);
        }
    }

    private static int leaderOf(Admin admin, int partition) throws Exception {
        return describe(admin).partitions().get(partition).leader().id();
    }

    private static TopicDescription describe(Admin admin) throws Exception {
        return admin.describeTopics(List.of(TOPIC)).allTopicNames().get(30, TimeUnit.SECONDS).get(TOPIC);
    }

    private static void awaitFullIsr(Admin admin) {
        Conditions.waitUntil(() -> {
            try {
                for (TopicPartitionInfo p : describe(admin).partitions()) {
                    if (p.leader() == null || p.isr().size() != 3) {
                        return false;
                    }
                }
                return true;
            } catch (Exception e) {
                return false;
            }
        }, 120_000, "every partition led with all three replicas in sync");
    }

    /** Partition -> its records in log order, as (offset, value). */
    private Map<Integer, List<ConsumerRecord<String, String>>> readAll() throws Exception {
        Map<String, Object> props = Map.of("bootstrap.servers", brokers.bootstrapServers(), "enable.auto.commit", "false");
        Map<Integer, List<ConsumerRecord<String, String>>> read = new HashMap<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                partitions.add(new TopicPartition(TOPIC, p));
                read.put(p, new ArrayList<>());
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                assertTrue("read everything within 2 minutes", System.nanoTime() < deadline);
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    read.get(r.partition()).add(r);
                }
            }
        }
        return read;
    }

    private void assertEachAcknowledgedRecordOnceInOrder(Map<Integer, List<ConsumerRecord<String, String>>> read) {
        Map<String, Long> offsets = new HashMap<>();
        for (Map.Entry<Integer, List<ConsumerRecord<String, String>>> e : read.entrySet()) {
            long lastSequence = -1;
            for (ConsumerRecord<String, String> r : e.getValue()) {
                assertNull("read twice: " + r.value(), offsets.put(r.value(), r.offset()));
                String[] parts = r.value().split(":");
                assertEquals("in its partition: " + r.value(), e.getKey().intValue(), Integer.parseInt(parts[0]));
                long sequence = Long.parseLong(parts[1]);
                assertTrue("partition " + e.getKey() + ": " + r.value() + " after sequence " + lastSequence,
                    sequence > lastSequence);
                lastSequence = sequence;
            }
        }
        for (Map.Entry<String, Long> ack : acknowledged.entrySet()) {
            assertEquals("acknowledged " + ack.getKey() + " at offset " + ack.getValue(), ack.getValue(),
                offsets.get(ack.getKey()));
        }
    }
}
