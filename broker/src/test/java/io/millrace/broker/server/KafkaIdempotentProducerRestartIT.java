package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.cluster.ClusterPaths;
import io.millrace.broker.log.ProducerStateManager;
import io.millrace.broker.network.NetworkConfig;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.ExternalResource;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;
import org.slf4j.LoggerFactory;

/**
 * Kafka's idempotent producer writes without pause while its broker is killed (no flush, no
 * deregistration), restarted, stopped cleanly and restarted again on the same port. Requests the
 * broker appended but never answered are sent again by the producer with the same sequence numbers;
 * the broker, whose producer state comes back from its snapshot and the log, must answer them with
 * their original offsets. Every acknowledged record is read back exactly once, in the order sent, at
 * the offset its acknowledgement named, and no send fails.
 */
public class KafkaIdempotentProducerRestartIT {

    private static final org.slf4j.Logger LOG = LoggerFactory.getLogger(KafkaIdempotentProducerRestartIT.class);
    // The broker's port stays taken until the broker binds it, so ZooKeeper cannot get it.
    private static final ServerSocket RESERVED = reserve();
    private static final int PORT = RESERVED.getLocalPort();
    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 1, Map.of(
        NetworkConfig.LISTENERS_CONFIG, "PLAINTEXT://127.0.0.1:" + PORT));

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(new ExternalResource() {
        @Override
        protected void before() throws IOException {
            RESERVED.close();
        }
    }).around(CLUSTER);

    private static final String TOPIC = "idempotent-restarts";
    private static final int PARTITIONS = 2;

    private final Map<Integer, long[]> acked = new ConcurrentHashMap<>();
    private final List<Exception> failures = new CopyOnWriteArrayList<>();
    private final AtomicInteger sent = new AtomicInteger();
    private final DuplicateAppendCounter duplicateCounter = new DuplicateAppendCounter();

    private static ServerSocket reserve() {
        try {
            return new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    public void retriesAcrossCrashesAndRestartsAreStoredOnce() throws Exception {
        CLUSTER.createTopic(TOPIC, PARTITIONS, Map.of());
        Logger producerState = Logger.getLogger(ProducerStateManager.class);
        producerState.setLevel(Level.DEBUG);
        producerState.addAppender(duplicateCounter);
        AtomicBoolean stop = new AtomicBoolean();
        Properties props = KafkaIdempotentProducerTest.idempotentProducer(CLUSTER.clientProps());
        props.put("reconnect.backoff.ms", "20");
        props.put("retry.backoff.ms", "20");
        props.put("delivery.timeout.ms", "120000");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            Thread sender = new Thread(() -> send(producer, stop), "idempotent-sender");
            sender.start();
            awaitMoreAcked(2_000);
            restart(true);
            awaitMoreAcked(2_000);
            restart(false);
            awaitMoreAcked(2_000);
            restart(true);
            awaitMoreAcked(2_000);
            stop.set(true);
            sender.join();
            producer.flush();
        } finally {
            producerState.removeAppender(duplicateCounter);
        }
        LOG.info("{} records sent, {} resent batches answered as duplicates", sent.get(), duplicateCounter.count());
        assertEquals("no send failed: " + failures, List.of(), failures);
        assertEquals("every record sent was acknowledged", sent.get(), acked.size());
        assertReadBackOnceAtTheirOffsets(readAll(sent.get()));
    }

    private void send(KafkaProducer<byte[], byte[]> producer, AtomicBoolean stop) {
        for (int n = 0; !stop.get(); n++) {
            int record = n;
            producer.send(KafkaIdempotentProducerTest.record(TOPIC, PARTITIONS, n), (metadata, error) -> {
                if (error != null) {
                    failures.add(error);
                } else {
                    acked.put(record, new long[] {metadata.partition(), metadata.offset()});
                }
            });
            sent.incrementAndGet();
            if (n % 50 == 49) {
                pause();
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void awaitMoreAcked(int more) {
        int target = acked.size() + more;
        Conditions.waitUntil(() -> acked.size() >= target || !failures.isEmpty(), 60_000, target + " records acknowledged");
    }

    private static void restart(boolean crash) throws Exception {
        if (crash) {
            CLUSTER.crash(0);
            try (CuratorFramework zk = CuratorFrameworkFactory.newClient(ZOOKEEPER.connectString(), new RetryOneTime(100))) {
                zk.start();
                Conditions.waitUntil(() -> !exists(zk, ClusterPaths.broker(0)), "broker 0's registration to go");
            }
        } else {
            CLUSTER.stop(0);
        }
        CLUSTER.start(0);
        CLUSTER.awaitLogs(TOPIC, PARTITIONS);
    }

    private static boolean exists(CuratorFramework zk, String path) {
        try {
            return zk.checkExists().forPath(path) != null;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Each partition's records as (record number, offset), in log order. */
    private static Map<Integer, List<long[]>> readAll(int total) {
        Properties props = CLUSTER.clientProps();
        props.put("key.deserializer", ByteArrayDeserializer.class.getName());
        props.put("value.deserializer", ByteArrayDeserializer.class.getName());
        Map<Integer, List<long[]>> read = new TreeMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                partitions.add(new TopicPartition(TOPIC, p));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            int count = 0;
            long deadline = System.currentTimeMillis() + 60_000;
            while (count < total && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    String value = new String(r.value(), StandardCharsets.UTF_8);
                    long n = Long.parseLong(value.substring("value ".length(), value.indexOf(' ', "value ".length())));
                    read.computeIfAbsent(r.partition(), k -> new ArrayList<>()).add(new long[] {n, r.offset()});
                    count++;
                }
            }
        }
        return read;
    }

    private void assertReadBackOnceAtTheirOffsets(Map<Integer, List<long[]>> read) {
        int total = 0;
        for (Map.Entry<Integer, List<long[]>> partition : read.entrySet()) {
            long previous = -1;
            for (long[] record : partition.getValue()) {
                int n = (int) record[0];
                assertTrue("partition " + partition.getKey() + ": record " + n + " after " + previous
                    + " (a duplicate or out of order)", n > previous);
                previous = n;
                long[] ack = acked.get(n);
                assertEquals("record " + n + "'s partition", partition.getKey().longValue(), ack[0]);
                assertEquals("record " + n + " is where its acknowledgement said", ack[1], record[1]);
                total++;
            }
        }
        assertEquals("records read", acked.size(), total);
    }
}
