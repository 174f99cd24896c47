package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.cluster.ClusterPaths;
import io.millrace.broker.log.Log;
import io.millrace.broker.log.LogConfig;
import io.millrace.broker.log.LogFileNames;
import io.millrace.broker.log.LogManager;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.MetadataRequest;
import io.millrace.common.protocol.message.MetadataResponse;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.spi.LoggingEvent;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * A broker killed without a clean shutdown, and one stopped cleanly, each restarted on its own
 * directory: what the cluster sees meanwhile and what the restarted broker serves.
 */
public class BrokerRestartTest {

    private static final String TOPIC = "durable";
    private static final int PARTITIONS = 4;
    private static final int RECORDS = 2_000;

    private final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();
    // Every message fsynced as it arrives: what was acked and flushed must survive a crash.
    private final BrokerCluster cluster = new BrokerCluster(zookeeper, 2, Map.of(
        LogConfig.LOG_FLUSH_INTERVAL_MESSAGES_CONFIG, 1L));

    @Rule
    public final TestRule rules = RuleChain.outerRule(zookeeper).around(cluster);

    private final List<String> logDirLoads = new CopyOnWriteArrayList<>();
    private final AppenderSkeleton loads = new AppenderSkeleton() {
        @Override
        protected void append(LoggingEvent event) {
            String message = event.getRenderedMessage();
            if (message.startsWith("Loading log directory")) {
                logDirLoads.add(message);
            }
        }

        @Override
        public void close() {
        }

        @Override
        public boolean requiresLayout() {
            return false;
        }
    };

    @Before
    public void captureLogDirLoads() {
        org.apache.log4j.Logger.getLogger(LogManager.class).addAppender(loads);
    }

    @After
    public void stopCapturing() {
        org.apache.log4j.Logger.getLogger(LogManager.class).removeAppender(loads);
    }

    @Test
    public void aKilledBrokerDisappearsFromTheClusterAndRecoversEveryFlushedBatchOnRestart() throws Exception {
        cluster.createTopic(TOPIC, PARTITIONS, Map.of());
        Map<Integer, List<Records>> sent = produce(TOPIC, "1");
        List<Integer> ledByOne = partitionsLedBy(1);
        assertFalse("broker 1 leads some partitions", ledByOne.isEmpty());
        Map<Integer, Path> dirs = awaitFlushed(cluster.broker(1), ledByOne);
        Map<Path, Long> flushedSizes = tornWriteAtTheEnd(dirs);

        cluster.crash(1);

        try (CuratorFramework zk = CuratorFrameworkFactory.newClient(zookeeper.connectString(), new RetryOneTime(100))) {
            zk.start();
            Conditions.waitUntil(() -> exists(zk, ClusterPaths.broker(1)) == false, "broker 1's registration to go");
            assertTrue(exists(zk, ClusterPaths.broker(0)));
        }
        Conditions.waitUntil(() -> !cluster.broker(0).cluster().metadata().snapshot().isLive(1), "broker 0 to see it");
        MetadataResponse metadata = metadataFromBrokerZero();
        assertEquals(List.of(0), metadata.brokers().stream().map(MetadataResponse.Broker::nodeId).toList());
        for (MetadataResponse.Partition p : metadata.topics().get(0).partitions()) {
            boolean orphaned = ledByOne.contains(p.partitionIndex());
            assertEquals("leader of partition " + p.partitionIndex(), orphaned ? -1 : 0, p.leaderId());
            assertEquals(orphaned ? Errors.LEADER_NOT_AVAILABLE : Errors.NONE, p.error());
        }
        Path logDir = dirs.values().iterator().next().getParent();
        assertFalse("no clean-shutdown marker", Files.exists(logDir.resolve(LogFileNames.CLEAN_SHUTDOWN_MARKER)));

        logDirLoads.clear();
        cluster.start(1);
        assertLoaded("an unclean");
        cluster.awaitLogs(TOPIC, PARTITIONS);
        flushedSizes.forEach((file, size) -> assertEquals("recovery cut the torn write off " + file, (long) size,
            size(file)));
        KafkaClientsTest.assertSameRecords(sent, Records.readAll(cluster.clientProps(), TOPIC, PARTITIONS, RECORDS));
    }

    @Test
    public void aCleanlyStoppedBrokerLeavesTheMarkerAndSkipsRecoveryOnRestart() throws Exception {
        cluster.createTopic(TOPIC, PARTITIONS, Map.of());
        Map<Integer, List<Records>> sent = produce(TOPIC, "all");
        List<Integer> ledByOne = partitionsLedBy(1);
        Map<Long, Long> endOffsets = new TreeMap<>();
        Path logDir = null;
        for (int p : ledByOne) {
            Log log = cluster.broker(1).logManager().getLog(TOPIC, p).orElseThrow();
            endOffsets.put((long) p, log.logEndOffset());
            logDir = log.logDir();
        }

        cluster.stop(1);

        assertTrue("clean-shutdown marker", Files.exists(logDir.resolve(LogFileNames.CLEAN_SHUTDOWN_MARKER)));
        logDirLoads.clear();
        Broker restarted = cluster.start(1);
        assertLoaded("a clean");
        assertFalse("the marker is consumed at startup", Files.exists(logDir.resolve(LogFileNames.CLEAN_SHUTDOWN_MARKER)));
        for (int p : ledByOne) {
            assertEquals((long) endOffsets.get((long) p), restarted.logManager().getLog(TOPIC, p).orElseThrow().logEndOffset());
        }
        cluster.awaitLogs(TOPIC, PARTITIONS);
        KafkaClientsTest.assertSameRecords(sent, Records.readAll(cluster.clientProps(), TOPIC, PARTITIONS, RECORDS));
    }

    private void assertLoaded(String how) {
        assertEquals(logDirLoads.toString(), 1, logDirLoads.size());
        assertTrue(logDirLoads.get(0), logDirLoads.get(0).endsWith(" after " + how + " shutdown"));
    }

    private List<Integer> partitionsLedBy(int broker) {
        List<Integer> led = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            if (cluster.broker(0).cluster().metadata().snapshot().leader(TOPIC, p) == broker) {
                led.add(p);
            }
        }
        return led;
    }

    /** Waits until the flusher has fsynced every appended message; returns the partitions' directories. */
    private static Map<Integer, Path> awaitFlushed(Broker broker, List<Integer> partitions) {
        Map<Integer, Path> dirs = new HashMap<>();
        for (int p : partitions) {
            Log log = broker.logManager().getLog(TOPIC, p).orElseThrow();
            Conditions.waitUntil(() -> log.recoveryPoint() == log.logEndOffset(), "partition " + p + " flushed");
            dirs.put(p, log.dir());
        }
        return dirs;
    }

    /** Appends a half-written batch to each partition's active segment; returns the sizes before. */
    private static Map<Path, Long> tornWriteAtTheEnd(Map<Integer, Path> dirs) throws Exception {
        Map<Path, Long> sizes = new HashMap<>();
        for (Path dir : dirs.values()) {
            Path active;
            try (Stream<Path> files = Files.list(dir)) {
                active = files.filter(f -> f.toString().endsWith(LogFileNames.LOG_SUFFIX)).sorted()
                    .reduce((a, b) -> b).orElseThrow();
            }
            sizes.put(active, size(active));
            byte[] torn = new byte[100];
            torn[11] = (byte) 200; // a batch length promising more bytes than follow
            Files.write(active, torn, StandardOpenOption.APPEND);
        }
        return sizes;
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static boolean exists(CuratorFramework zk, String path) {
        try {
            return zk.checkExists().forPath(path) != null;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private MetadataResponse metadataFromBrokerZero() throws Exception {
        try (RawClient client = new RawClient(cluster.broker(0).boundPort())) {
            return client.call(new MetadataRequest(List.of(MetadataRequest.Topic.named(TOPIC)), false, false, false),
                (short) 12);
        }
    }

    private Map<Integer, List<Records>> produce(String topic, String acks) throws Exception {
        Properties props = cluster.clientProps();
        props.put("key.serializer", ByteArraySerializer.class.getName());
        props.put("value.serializer", ByteArraySerializer.class.getName());
        props.put("acks", acks);
        props.put("enable.idempotence", String.valueOf(acks.equals("all")));
        props.put("linger.ms", "2");
        Map<Integer, List<Records>> sent = new TreeMap<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            List<Future<RecordMetadata>> acked = new ArrayList<>();
            for (int n = 0; n < RECORDS; n++) {
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, n % PARTITIONS, 1_700_000_000_000L + n,
                    ("key-" + n).getBytes(StandardCharsets.UTF_8), ("value " + n).getBytes(StandardCharsets.UTF_8));
                sent.computeIfAbsent(n % PARTITIONS, k -> new ArrayList<>()).add(Records.of(record));
                acked.add(producer.send(record));
            }
            for (Future<RecordMetadata> f : acked) {
                f.get(30, TimeUnit.SECONDS);
            }
        }
        return sent;
    }
}
