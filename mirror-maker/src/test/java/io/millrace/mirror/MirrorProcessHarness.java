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
import org.junit.rules.TemporaryFolder;

/**
 * Two single-broker clusters, live and offline, a topic of four partitions on the live one, and the
 * mirror in processes of its own as an operator runs it, with what the tests of a running mirror
 * share: a producer that keeps sending to the live topic, waits for the offline cluster to catch up,
 * and reads of both sides, partition by partition. Each test gets fresh clusters.
 */
public abstract class MirrorProcessHarness {

    protected static final String TOPIC = "events";
    protected static final int PARTITIONS = 4;

    @Rule
    public final TemporaryFolder temp = new TemporaryFolder();

    protected LocalCluster live;
    protected LocalCluster offline;
    protected final List<Process> mirrors = new ArrayList<>();

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

    /** SIGTERM to the {@code index}-th mirror started; the Duplicates count its last log line reports. */
    protected long stopAndReadDuplicates(int index) throws Exception {
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
    protected Map<Integer, Long> copiedPastCommit(String group) throws Exception {
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
    protected Map<Integer, String> owners(String group) {
        Map<Integer, String> owners = new java.util.TreeMap<>();
        try (GroupOffsets offsets = new GroupOffsets(new ConsumerConfig(Map.of("zookeeper.connect",
                live.zookeeperConnect(), "bootstrap.servers", live.bootstrapServers())))) {
            offsets.describe(group).forEach(row -> owners.put(row.partition(), row.owner()));
        }
        return owners;
    }

    protected Process startMirror(String group) throws IOException {
        return startMirror(group, live.zookeeperConnect());
    }

    protected Process startMirror(String group, String groupZooKeeper) throws IOException {
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

    protected Path write(String name, Map<String, String> settings) throws IOException {
        Properties props = new Properties();
        props.putAll(settings);
        Path file = temp.getRoot().toPath().resolve(name);
        try (Writer out = Files.newBufferedWriter(file)) {
            props.store(out, null);
        }
        return file;
    }

    protected void awaitMirrored(long records) throws Exception {
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

    protected long offlineCount() {
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
    protected void assertEveryLiveRecordMirroredOnce() throws Exception {
        awaitComplete();
        for (int p = 0; p < PARTITIONS; p++) {
            assertEquals("partition " + p, read(live, p), read(offline, p));
        }
    }

    protected void awaitComplete() throws Exception {
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

    protected static List<String> read(LocalCluster cluster, int partition) {
        List<String> values = new ArrayList<>();
        try (PartitionReader reader = reader(cluster)) {
            TopicPartition tp = new TopicPartition(TOPIC, partition);
            reader.read(tp, reader.earliestOffset(tp), reader.latestOffset(tp), new StringDeserializer(),
                new StringDeserializer()).forEachRemaining((ConsumerRecord<String, String> r) -> values.add(r.value()));
        }
        return values;
    }

    protected static PartitionReader reader(LocalCluster cluster) {
        return new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers", cluster.bootstrapServers())));
    }

    /** Sends to every partition of the live topic until closed: value "p-n" is the partition's n-th record. */
    protected final class ContinuousProducer implements AutoCloseable {
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
