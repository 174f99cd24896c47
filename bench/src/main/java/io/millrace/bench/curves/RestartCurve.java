package io.millrace.bench.curves;

import io.millrace.bench.compare.BrokerProcess;
import io.millrace.bench.compare.RunStatistics;
import io.millrace.bench.curves.CurveResults.Curve;
import io.millrace.bench.curves.CurveResults.Metric;
import io.millrace.bench.groups.GroupClients;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * d) Restart after a crash against the data on disk: a topic of one partition with {@code segment.bytes}
 * set so that the full size makes the segments asked for, filled step by step (a tenth, then all of it;
 * a hundredth first at full size) with {@value #FILL_VALUE_BYTES}-byte records, and at each step crashed
 * and restarted once per run ({@link RestartProbe}). The data is written with {@code acks=1} and never
 * flushed by the benchmark: what a crash finds is what the broker wrote and fsynced of its own accord.
 */
final class RestartCurve {

    static final int FILL_VALUE_BYTES = 1000;
    static final Metric SERVING = new Metric("SIGKILL, restart to first produce and fetch", "ms", false);
    static final Metric LISTENING = new Metric("SIGKILL, restart to port accepting", "ms", false);
    static final Metric REJOINED = new Metric("SIGKILL, restart to rejoining the cluster", "ms", false);
    static final Metric LOST = new Metric("acknowledged records missing after the restart", "records", false);
    static final Metric ON_DISK = new Metric("segment files on disk", "MB", false);
    static final Metric SEGMENTS = new Metric("segments on disk", "segments", false);
    private static final String TOPIC = "restart";
    /** The broker setting, the same on both, for the segments of every topic. */
    static final String SEGMENT_BYTES = "log.segment.bytes";

    /** One step: the bytes of records written so far, and its label. */
    record Step(long bytes, String label) {
    }

    private final CurveResults results;
    private final List<Step> steps;
    private final int segmentBytes;
    private final Curve curve;
    /** Bytes of values the fill wrote, and probe records produced, per broker. */
    private final Map<String, Long> written = new HashMap<>();
    private final Map<String, Long> probes = new HashMap<>();

    RestartCurve(CurveResults results, long totalBytes, int segments, boolean quick) {
        this.results = results;
        this.segmentBytes = (int) Math.max(1 << 20, totalBytes / segments);
        this.steps = steps(totalBytes, segmentBytes, quick);
        results.note("Restart: rejoining the cluster is, for Millrace's broker, Broker.startup() returning, registered in"
            + " ZooKeeper (it serves clients from its loaded logs before that); for Kafka's, its client port accepting, which"
            + " it opens once its controller has registered it and let it out of fencing.");
        this.curve = results.curve(new Curve("restart", "d) Restart after SIGKILL, one partition of " + mb(segmentBytes)
            + " MB segments", "data on disk", steps.stream().map(Step::label).toList()));
    }

    static List<Step> steps(long totalBytes, int segmentBytes, boolean quick) {
        List<Step> steps = new ArrayList<>();
        for (double fraction : quick ? new double[] {0.1, 1} : new double[] {0.01, 0.1, 1}) {
            long bytes = (long) (totalBytes * fraction);
            steps.add(new Step(bytes, size(bytes) + ", " + String.format(Locale.ROOT, "%,d", Math.max(1, bytes / segmentBytes))
                + " segments"));
        }
        return steps;
    }

    /** 100 MB, 1 GB, 2.5 GB: three significant digits at most. */
    static String size(long bytes) {
        return bytes >= 1e9 ? plain(bytes / 1e9) + " GB" : plain(bytes / 1e6) + " MB";
    }

    private static String mb(long bytes) {
        return plain(bytes / 1e6);
    }

    private static String plain(double v) {
        return new java.math.BigDecimal(v).round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString();
    }

    /** The topic, with the segment size also as its own setting. */
    void prepare(String bootstrap) throws Exception {
        GroupClients.createTopic(bootstrap, TOPIC, 1, Map.of("segment.bytes", Integer.toString(segmentBytes)));
    }

    int segmentBytes() {
        return segmentBytes;
    }

    List<Step> steps() {
        return steps;
    }

    /** Writes records until {@code side}'s topic holds {@code step}'s bytes of values. */
    void fill(String side, String bootstrap, Step step) throws Exception {
        long done = written.getOrDefault(side, 0L);
        long count = (step.bytes() - done) / FILL_VALUE_BYTES;
        long start = System.nanoTime();
        byte[] value = new byte[FILL_VALUE_BYTES];
        java.util.Arrays.fill(value, (byte) 'f');
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(fillProps(bootstrap), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (long i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(TOPIC, 0, null, value));
            }
            producer.flush();
        }
        written.put(side, done + count * FILL_VALUE_BYTES);
        System.err.printf(Locale.ROOT, "bench-curves: %s filled to %s in %.1f s%n", side, step.label(),
            (System.nanoTime() - start) / 1e9);
    }

    /** One crash and restart of {@code side}'s broker at {@code step}; {@code expected}: the records before it. */
    void crash(String side, BrokerProcess broker, String bootstrap, Step step) throws Exception {
        long expected = records(side);
        Path partition = broker.logDirectory().resolve(TOPIC + "-0");
        add(step, side, ON_DISK, segmentFileBytes(partition) / 1e6);
        add(step, side, SEGMENTS, segmentFiles(partition));
        RestartProbe.Timing t = RestartProbe.crashAndRestart(broker, bootstrap, TOPIC);
        probes.merge(side, 1L, Long::sum);
        add(step, side, LISTENING, t.listeningMs());
        add(step, side, SERVING, t.servingMs());
        add(step, side, REJOINED, t.rejoinedMs());
        add(step, side, LOST, expected - t.offset());
    }

    /** Records written to {@code side}'s topic so far: the fill's and one per probe. */
    private long records(String side) {
        return written.getOrDefault(side, 0L) / FILL_VALUE_BYTES + probes.getOrDefault(side, 0L);
    }

    private void add(Step step, String side, Metric metric, double value) {
        System.err.printf(Locale.ROOT, "bench-curves:   %s restart, %s: %s %s%n", side, step.label(), metric.name(),
            RunStatistics.format(value), metric.unit());
        results.add(curve, metric, step.label(), side, value);
    }

    static long segmentFileBytes(Path partition) throws IOException {
        try (Stream<Path> files = Files.list(partition)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".log")).mapToLong(f -> f.toFile().length()).sum();
        }
    }

    static long segmentFiles(Path partition) throws IOException {
        try (Stream<Path> files = Files.list(partition)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".log")).count();
        }
    }

    private static Map<String, Object> fillProps(String bootstrap) {
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "1");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 10);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
        props.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 64L * 1024 * 1024);
        return props;
    }
}
