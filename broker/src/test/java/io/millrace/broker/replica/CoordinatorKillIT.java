package io.millrace.broker.replica;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.zookeeper.KeeperException;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The broker coordinating a group is killed with SIGKILL while its member commits after every poll,
 * and the registry has none of those commits yet (it is written every 30 s here): they live only in
 * the replicated {@code __consumer_offsets}. The partition's new leader coordinates the group from
 * the replayed commits and the stored generation, so the member goes on in its generation, with its
 * positions, without rejoining: every record is read exactly once, and the new leader writes the
 * commits to the ZooKeeper offset registry.
 */
public class CoordinatorKillIT {

    private static final String TOPIC = "work";
    private static final String GROUP = "outlives-its-coordinator";
    private static final int PARTITIONS = 6;
    private static final int PER_PARTITION = 100;

    @Rule
    public final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();
    @Rule
    public final TemporaryFolder temp = new TemporaryFolder();

    private BrokerProcesses brokers;

    @Before
    public void setUp() throws Exception {
        brokers = new BrokerProcesses(3, zookeeper.connectString(), temp.newFolder("cluster").toPath(), Map.of(
            "zookeeper.session.timeout.ms", "6000",
            "group.initial.rebalance.delay.ms", "0",
            "offsets.topic.num.partitions", "3",
            "offsets.registry.write.interval.ms", "30000"));
        brokers.startAll();
    }

    @After
    public void tearDown() {
        if (brokers != null) {
            brokers.close();
        }
    }

    @Test(timeout = 180_000)
    public void committedOffsetsOutliveTheCoordinatorsBroker() throws Exception {
        produce();
        Map<String, AtomicInteger> reads = new HashMap<>();
        Map<TopicPartition, Long> acknowledged = new HashMap<>();
        int coordinator;
        try (KafkaConsumer<String, String> member = member(); Admin admin = Admin.create(Map.of(
            "bootstrap.servers", brokers.bootstrapServers()))) {
            member.subscribe(List.of(TOPIC));
            readAndCommit(member, reads, acknowledged, PARTITIONS * PER_PARTITION / 2);
            coordinator = admin.describeConsumerGroups(List.of(GROUP)).all().get(30, TimeUnit.SECONDS)
                .get(GROUP).coordinator().id();
            assertEquals("the registry is written only every 30 s", 0, registrySum());

            String memberId = member.groupMetadata().memberId();
            int generation = member.groupMetadata().generationId();
            brokers.kill(coordinator);
            readAndCommit(member, reads, acknowledged, PARTITIONS * PER_PARTITION);
            // the new leader took the group over with its generation: the member never rejoined, so it
            // kept its positions and read nothing again
            assertEquals(memberId, member.groupMetadata().memberId());
            assertEquals(generation, member.groupMetadata().generationId());
        }
        for (int p = 0; p < PARTITIONS; p++) {
            for (int i = 0; i < PER_PARTITION; i++) {
                assertTrue(p + "-" + i + " was read", reads.containsKey(p + "-" + i));
                assertEquals(p + "-" + i + " read once", 1, reads.get(p + "-" + i).get());
            }
        }
        // nothing below the commits acknowledged before the kill was read again after it
        for (Map.Entry<TopicPartition, Long> before : acknowledgedAtKill.entrySet()) {
            for (long i = 0; i < before.getValue(); i++) {
                String value = before.getKey().partition() + "-" + i;
                assertEquals(value + " read once", 1, reads.get(value).get());
            }
        }
        long acknowledgedSum = acknowledgedAtKill.values().stream().mapToLong(Long::longValue).sum();
        Conditions.waitUntil(() -> registrySum() >= acknowledgedSum, 30_000,
            "the new leader writing the replayed commits to the offset registry");
    }

    private final Map<TopicPartition, Long> acknowledgedAtKill = new HashMap<>();

    /** Polls, committing after every poll, until {@code total} distinct records were read. */
    private void readAndCommit(KafkaConsumer<String, String> member, Map<String, AtomicInteger> reads,
                               Map<TopicPartition, Long> acknowledged, int total) {
        boolean beforeKill = acknowledgedAtKill.isEmpty() && total < PARTITIONS * PER_PARTITION;
        long deadline = System.currentTimeMillis() + 120_000;
        while (reads.size() < total) {
            assertTrue("read " + reads.size() + " of " + total, System.currentTimeMillis() < deadline);
            for (ConsumerRecord<String, String> r : member.poll(Duration.ofMillis(100))) {
                reads.computeIfAbsent(r.value(), v -> new AtomicInteger()).incrementAndGet();
            }
            Map<TopicPartition, OffsetAndMetadata> positions = new HashMap<>();
            for (TopicPartition tp : member.assignment()) {
                positions.put(tp, new OffsetAndMetadata(member.position(tp, Duration.ofSeconds(10))));
            }
            try {
                member.commitSync(positions, Duration.ofSeconds(10));
                positions.forEach((tp, o) -> acknowledged.put(tp, o.offset()));
            } catch (KafkaException moving) {
                // the coordinator is gone or moving: the member rejoins in a later poll
            }
        }
        if (beforeKill) {
            acknowledgedAtKill.putAll(acknowledged);
        }
    }

    private void produce() throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", brokers.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 3))).all().get(30, TimeUnit.SECONDS);
        }
        Properties props = new Properties();
        props.put("bootstrap.servers", brokers.bootstrapServers());
        props.put("acks", "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int p = 0; p < PARTITIONS; p++) {
                for (int i = 0; i < PER_PARTITION; i++) {
                    producer.send(new ProducerRecord<>(TOPIC, p, null, p + "-" + i));
                }
            }
            producer.flush();
        }
    }

    private KafkaConsumer<String, String> member() {
        Properties props = new Properties();
        props.put("bootstrap.servers", brokers.bootstrapServers());
        props.put("group.id", GROUP);
        props.put("enable.auto.commit", "false");
        props.put("auto.offset.reset", "earliest");
        props.put("max.poll.records", "20");
        props.put("session.timeout.ms", "6000");
        props.put("heartbeat.interval.ms", "300");
        props.put("request.timeout.ms", "5000");
        props.put("reconnect.backoff.max.ms", "200");
        return new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
    }

    /** The group's committed offsets in the ZooKeeper offset registry, summed over the topic's partitions. */
    private long registrySum() {
        try (CuratorFramework curator = CuratorFrameworkFactory.newClient(zookeeper.connectString(), new RetryOneTime(100))) {
            curator.start();
            long sum = 0;
            for (int p = 0; p < PARTITIONS; p++) {
                try {
                    byte[] data = curator.getData().forPath("/millrace/consumers/" + GROUP + "/offsets/" + TOPIC + "/" + p);
                    sum += Long.parseLong(new String(data, StandardCharsets.UTF_8).trim());
                } catch (KeeperException.NoNodeException absent) {
                    // nothing written for it yet
                }
            }
            return sum;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
