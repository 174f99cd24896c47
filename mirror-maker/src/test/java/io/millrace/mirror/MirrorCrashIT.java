package io.millrace.mirror;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.TopicPartition;
import io.millrace.common.serialization.StringDeserializer;
import io.millrace.common.serialization.StringSerializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.consumer.GroupOffsets;
import io.millrace.consumer.PartitionReader;
import io.millrace.producer.MillraceProducer;
import io.millrace.producer.ProducerRecord;
import java.io.File;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The mirror as an operator runs it, in processes of its own, while a live cluster keeps receiving
 * records: killed with SIGKILL in mid-stream and started again, it loses nothing and writes nothing
 * twice (each offline partition reads as the live one), and the duplicates it reports are exactly the
 * records the killed mirror had copied after its last commit, which it read again and did not write; two
 * mirrors in one group split the partitions, and when one is killed the other takes them over the same way.
 */
public class MirrorCrashIT {

    private static final String TOPIC = "events";
    private static final int PARTITIONS = 4;

    @Rule
    public final TemporaryFolder temp = new TemporaryFolder();

    private LocalCluster live;
    private LocalCluster offline;
    private final List<Process> mirrors = new ArrayList<>();

    @Before
    public void startClusters() throws Exception {
        live = LocalCluster.start(1, Map.of("broker.id", 1));
        offline = LocalCluster.start(1, Map.of("broker.id", 2));
        live.createTopic(TOPIC, PARTITIONS);
    }

    @After
    public void stopAll() {
        mirrors.forEach(Process::destroyForcibly);
        if (live != null) {
            live.close();
        }
        if (offline != null) {
            offline.close();
        }
    }

    @Test(timeout = 300_000)
    public void aMirrorKilledMidStreamLosesNothingAndCopiesAgainOnlyFromItsLastCommit() throws Exception {
        Map<Integer, Long> copiedPastCommit;
        try (ContinuousProducer source = new ContinuousProducer()) {
            Process first = startMirror("g-crash");
            awaitMirrored(2_000);
            first.destroyForcibly();   // SIGKILL: no flush, no commit
            assertTrue(first.waitFor(30, TimeUnit.SECONDS));
            copiedPastCommit = copiedPastCommit("g-crash");
            startMirror("g-crash");
            awaitMirrored(source.sent() + 2_000);
        }
        assertEveryLiveRecordMirroredOnce();
        assertEquals("the restarted mirror's duplicates metric: what the killed one copied after its last commit",
            copiedPastCommit.values().stream().mapToLong(Long::longValue).sum(), stopAndReadDuplicates(1));
    }

    /** SIGTERM to the {@code index}-th mirror started; the Duplicates count its last log line reports. */
    private long stopAndReadDuplicates(int index) throws Exception {
        Process mirror = mirrors.get(index);
        mirror.destroy();
        assertTrue(mirror.waitFor(60, TimeUnit.SECONDS));
        Path log = temp.getRoot().toPath().resolve("mirror-" + index + ".log");
        java.util.regex.Matcher stopped = java.util.regex.Pattern.compile("Mirror stopped: .* (\\d+) duplicates")
            .matcher(Files.readString(log));
        assertTrue("no closing line in " + log, stopped.find());
        return Long.parseLong(stopped.group(1));
    }

    /**
     * Per partition, the records a killed mirror sent to the offline cluster after the group's last commit:
     * the offline partition's end less the committed offset, once a request the killed mirror sent can no
     * longer be appended. The offline partition holds the live one's records in order from offset 0, so both
     * count the same records. (Read before the group's session of the killed mirror expires, so no other
     * member has taken its partitions yet.)
     */
    private Map<Integer, Long> copiedPastCommit(String group) throws Exception {
        Thread.sleep(1_000);
        Map<Integer, Long> copied = new java.util.TreeMap<>();
        try (GroupOffsets offsets = new GroupOffsets(new ConsumerConfig(Map.of("zookeeper.connect",
                live.zookeeperConnect(), "bootstrap.servers", live.bootstrapServers())));
             PartitionReader reader = reader(offline)) {
            for (GroupOffsets.PartitionLag row : offsets.describe(group)) {
                long end = reader.latestOffset(new TopicPartition(TOPIC, row.partition()));
                copied.put(row.partition(), end - Math.max(0, row.committedOffset()));
            }
        }
        return copied;
    }

    /** The member of {@code group} that owns each partition now. */
    private Map<Integer, String> owners(String group) {
        Map<Integer, String> owners = new java.util.TreeMap<>();
        try (GroupOffsets offsets = new GroupOffsets(new ConsumerConfig(Map.of("zookeeper.connect",
                live.zookeeperConnect(), "bootstrap.servers", live.bootstrapServers())))) {
            offsets.describe(group).forEach(row -> owners.put(row.partition(), row.owner()));
        }
        return owners;
    }

    @Test(timeout = 300_000)
    public void twoMirrorsInOneGroupSplitThePartitionsAndOneTakesOverWhenTheOtherIsKilled() throws Exception {
        long killedCopiedPastCommit = 0;
        try (ContinuousProducer source = new ContinuousProducer()) {
            Process first = startMirror("g-pair");
            startMirror("g-pair");
            awaitMirrored(2_000);
            Map<Integer, String> ownersBefore = owners("g-pair");
            first.destroyForcibly();
            assertTrue(first.waitFor(30, TimeUnit.SECONDS));
            Map<Integer, Long> copiedPastCommit = copiedPastCommit("g-pair");
            awaitMirrored(source.sent() + 2_000);
            // the survivor owns every partition now: the others were the killed mirror's
            String survivor = owners("g-pair").get(0);
            for (Map.Entry<Integer, String> owner : ownersBefore.entrySet()) {
                if (!owner.getValue().equals(survivor)) {
                    killedCopiedPastCommit += copiedPastCommit.get(owner.getKey());
                }
            }
        }
        assertEveryLiveRecordMirroredOnce();
        assertEquals("the survivor's duplicates metric: what the killed mirror copied after its last commit",
            killedCopiedPastCommit, stopAndReadDuplicates(1));
    }

    @Test(timeout = 300_000)
    public void aLiveBrokerRestartAndAnOfflineBrokerRestartDuringMirroringLoseNothing() throws Exception {
        try (ContinuousProducer source = new ContinuousProducer()) {
            startMirror("g-restart");
            awaitMirrored(2_000);
            live.stopBroker(0);
            Thread.sleep(1_000);
            live.startBroker(0);
            awaitMirrored(offlineCount() + 1_000);
            offline.stopBroker(0);
            Thread.sleep(1_000);
            offline.startBroker(0);
            awaitMirrored(offlineCount() + 1_000);
        }
        awaitComplete();
        for (int p = 0; p < PARTITIONS; p++) {
            List<String> source = read(live, p);
            List<String> mirrored = read(offline, p);
            assertTrue("partition " + p + ": every live record is offline",
                new java.util.HashSet<>(mirrored).containsAll(source));
            java.util.LinkedHashSet<String> firstSeen = new java.util.LinkedHashSet<>(mirrored);
            assertEquals("partition " + p + ": first copies in the live order",
                new ArrayList<>(new java.util.LinkedHashSet<>(source)), new ArrayList<>(firstSeen));
        }
    }

    /** SIGTERM ends the mirror within its bound even while the live group's ZooKeeper is down. */
    @Test(timeout = 300_000)
    public void sigtermStopsTheMirrorWithinItsBoundWhileTheGroupsZooKeeperIsDown() throws Exception {
        try (io.millrace.testkit.EmbeddedZooKeeper registries = new io.millrace.testkit.EmbeddedZooKeeper().start()) {
            try (ContinuousProducer source = new ContinuousProducer()) {
                Process mirror = startMirror("g-sigterm", registries.connectString());
                awaitMirrored(2_000);
                registries.stop();
                long start = System.nanoTime();
                mirror.destroy();   // SIGTERM
                assertTrue("the mirror did not stop within 60 s", mirror.waitFor(60, TimeUnit.SECONDS));
                long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertTrue("SIGTERM to exit took " + tookMs + " ms with ZooKeeper down", tookMs < 15_000);
            }
        }
    }

    private Process startMirror(String group) throws IOException {
        return startMirror(group, live.zookeeperConnect());
    }

    private Process startMirror(String group, String groupZooKeeper) throws IOException {
        Path consumerConfig = write("live-" + mirrors.size() + ".properties", Map.of(
            "cluster.name", "live", "bootstrap.servers", live.bootstrapServers(), "zookeeper.connect", groupZooKeeper,
            ConsumerConfig.GROUP_ID_CONFIG, group, ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "smallest",
            ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "100", ConsumerConfig.REBALANCE_BACKOFF_MS_CONFIG, "500",
            ConsumerConfig.ZOOKEEPER_SESSION_TIMEOUT_MS_CONFIG, "4000"));
        Path producerConfig = write("offline-" + mirrors.size() + ".properties",
            Map.of("bootstrap.servers", offline.bootstrapServers(), "linger.ms", "5"));
        Path log = temp.getRoot().toPath().resolve("mirror-" + mirrors.size() + ".log");
        Process mirror = new ProcessBuilder(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx256m", "-cp", System.getProperty("java.class.path"), "io.millrace.mirror.tools.MirrorMakerMain",
            "--consumer.config", consumerConfig.toString(), "--producer.config", producerConfig.toString(),
            "--whitelist", TOPIC, "--override", "offset.commit.interval.ms=300"))
            .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        mirrors.add(mirror);
        return mirror;
    }

    private Path write(String name, Map<String, String> settings) throws IOException {
        Properties props = new Properties();
        props.putAll(settings);
        Path file = temp.getRoot().toPath().resolve(name);
        try (Writer out = Files.newBufferedWriter(file)) {
            props.store(out, null);
        }
        return file;
    }

    private void awaitMirrored(long records) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            if (offlineCount() >= records) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the offline cluster holds " + offlineCount() + " records, not " + records + "; logs in "
            + temp.getRoot());
    }

    private long offlineCount() {
        try (PartitionReader reader = reader(offline)) {
            long count = 0;
            for (int p = 0; p < PARTITIONS; p++) {
                count += reader.latestOffset(new TopicPartition(TOPIC, p));
            }
            return count;
        } catch (RuntimeException topicNotThereYet) {
            return 0;
        }
    }

    /** Per partition, the offline log is the live log: nothing missing, nothing twice, in the live order. */
    private void assertEveryLiveRecordMirroredOnce() throws Exception {
        awaitComplete();
        for (int p = 0; p < PARTITIONS; p++) {
            assertEquals("partition " + p, read(live, p), read(offline, p));
        }
    }

    private void awaitComplete() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            boolean complete = true;
            for (int p = 0; p < PARTITIONS && complete; p++) {
                List<String> mirrored = read(offline, p);
                String last = mirrored.isEmpty() ? "" : mirrored.get(mirrored.size() - 1);
                List<String> source = read(live, p);
                complete = !source.isEmpty() && last.equals(source.get(source.size() - 1));
            }
            if (complete) {
                return;
            }
            Thread.sleep(300);
        }
        throw new AssertionError("the mirror did not catch up; logs in " + temp.getRoot());
    }

    private static List<String> read(LocalCluster cluster, int partition) {
        List<String> values = new ArrayList<>();
        try (PartitionReader reader = reader(cluster)) {
            TopicPartition tp = new TopicPartition(TOPIC, partition);
            reader.read(tp, reader.earliestOffset(tp), reader.latestOffset(tp), new StringDeserializer(),
                new StringDeserializer()).forEachRemaining((ConsumerRecord<String, String> r) -> values.add(r.value()));
        }
        return values;
    }

    private static PartitionReader reader(LocalCluster cluster) {
        return new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers", cluster.bootstrapServers())));
    }

    /** Sends to every partition of the live topic until closed: value "p-n" is the partition's n-th record. */
    private final class ContinuousProducer implements AutoCloseable {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicInteger sent = new AtomicInteger();
        private final Thread thread;
        private volatile Exception failure;

        ContinuousProducer() {
            thread = new Thread(this::run, "live-producer");
            thread.start();
        }

        private void run() {
            try (MillraceProducer<String, String> producer = new MillraceProducer<>(Map.of("bootstrap.servers",
                    live.bootstrapServers(), "linger.ms", 5), new StringSerializer(), new StringSerializer())) {
                int n = 0;
                while (running.get()) {
                    for (int p = 0; p < PARTITIONS; p++) {
                        producer.send(new ProducerRecord<>(TOPIC, p, "k", p + "-" + n)).get();
                    }
                    sent.addAndGet(PARTITIONS);
                    n++;
                    if (n % 50 == 0) {
                        Thread.sleep(10);
                    }
                }
            } catch (Exception e) {
                failure = e;
            }
        }

        int sent() {
            return sent.get();
        }

        @Override
        public void close() throws Exception {
            running.set(false);
            thread.join(30_000);
            if (failure != null) {
                throw failure;
            }
        }
    }
}
