package io.millrace.bench.compare;

import io.millrace.common.TopicPartition;
import io.millrace.common.serialization.ByteArraySerializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.consumer.PartitionReader;
import io.millrace.mirror.MirrorMaker;
import io.millrace.mirror.MirrorMakerConfig;
import io.millrace.mirror.SourceCluster;
import io.millrace.producer.MillraceProducer;
import io.millrace.producer.ProducerRecord;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code bin/millrace bench-mirror [--scale S] [--runs N] [--quick]}: the mirror maker copying a topic from
 * one Millrace broker to another, next to the plain consumer reading the same topic, in the same run. Each
 * broker (with its ZooKeeper) runs in a JVM of its own; the mirror and the consumer run in this one. One
 * single-partition topic is filled with {@value #RECORD_COUNT} × scale records of {@value #VALUE_BYTES}
 * random bytes, unmeasured; then each run reads it with the consumer alone (counting value bytes) and
 * mirrors all of it into the second broker (a new group each run, so from the first offset; timed until the
 * offline broker acknowledged the last record), in one order in odd runs and the reverse in even ones.
 * Prints records/s and MB/s (value bytes) as min / median / max, and the ratio mirror/consumer per run.
 */
public final class MirrorComparison {

    static final long RECORD_COUNT = 5_000_000L;
    static final int VALUE_BYTES = 100;
    static final double QUICK_SCALE = 0.01;
    static final int QUICK_RUNS = 2;
    static final String CONSUMER = "consumer alone";
    static final String MIRROR = "mirror maker, to a second broker";

    private final double scale;
    private final int runs;
    private final List<LoadScenarios.Timed> consumer = new ArrayList<>();
    private final List<LoadScenarios.Timed> mirror = new ArrayList<>();
    private long records;

    MirrorComparison(double scale, int runs) {
        this.scale = scale;
        this.runs = runs;
    }

    public static void main(String[] args) throws Exception {
        RunOptions options = RunOptions.parse(args, "bench-mirror [--scale S] [--runs N] [--quick]",
            3, QUICK_SCALE, QUICK_RUNS);
        MirrorComparison bench = new MirrorComparison(options.scale(), options.runs());
        bench.run();
        bench.report(System.out);
        System.exit(0);
    }

    void run() throws Exception {
        Path parent = Files.createTempDirectory("millrace-mirror-bench-");
        try (MillraceBroker live = new MillraceBroker(parent, parent.resolve("live.log"), "1g");
             MillraceBroker offline = new MillraceBroker(parent, parent.resolve("offline.log"), "1g")) {
            live.start();
            offline.start();
            records = Math.max(1_000, Math.round(RECORD_COUNT * scale));
            fill(live.bootstrapServers(), "warm-up", Math.max(1_000, records / 50));
            round(0, live, offline, "warm-up", Math.max(1_000, records / 50));
            fill(live.bootstrapServers(), "events", records);
            for (int run = 1; run <= runs; run++) {
                round(run, live, offline, "events", records);
            }
        } finally {
            BrokerProcess.deleteRecursively(parent);
        }
    }

    private static void fill(String bootstrap, String topic, long count) throws Exception {
        Scenarios.createTopic(bootstrap, topic);
        byte[] value = new byte[VALUE_BYTES];
        ThreadLocalRandom.current().nextBytes(value);
        try (MillraceProducer<byte[], byte[]> producer = new MillraceProducer<>(Map.of("bootstrap.servers", bootstrap,
                "linger.ms", 5, "batch.size", 65_536), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (long i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, 0, null, value));
            }
            producer.flush();
        }
    }

    private void round(int run, MillraceBroker live, MillraceBroker offline, String topic, long count) throws Exception {
        List<String> order = run % 2 == 1 ? List.of(CONSUMER, MIRROR) : List.of(MIRROR, CONSUMER);
        for (String side : order) {
            LoadScenarios.Timed timed = side.equals(CONSUMER) ? consume(live.bootstrapServers(), topic, count)
                : mirror(live, offline, topic, count, "bench-mirror-" + run);
            if (run > 0) {
                (side.equals(CONSUMER) ? consumer : mirror).add(timed);
            }
            System.err.printf(Locale.ROOT, "bench-mirror: run %d %s: %,.0f records/s, %.1f MB/s, %.1f s%n", run, side,
                timed.recordsPerSecond(), timed.megabytesPerSecond(), timed.seconds());
        }
    }

    private static LoadScenarios.Timed consume(String bootstrap, String topic, long end) {
        long read = 0;
        long bytes = 0;
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers", bootstrap)))) {
            reader.partitionCount(topic);
            long start = System.nanoTime();
            Iterator<ConsumerRecord<byte[], byte[]>> it = reader.read(new TopicPartition(topic, 0), 0, end);
            while (it.hasNext()) {
                bytes += it.next().value().length;
                read++;
            }
            return new LoadScenarios.Timed(read, bytes, (System.nanoTime() - start) / 1e9);
        }
    }

    private static LoadScenarios.Timed mirror(MillraceBroker live, MillraceBroker offline, String topic, long count,
                                              String group) throws Exception {
        Map<String, Object> source = Map.of("bootstrap.servers", live.bootstrapServers(),
            "zookeeper.connect", live.zookeeperConnect(), ConsumerConfig.GROUP_ID_CONFIG, group,
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "smallest");
        Map<String, Object> target = Map.of("bootstrap.servers", offline.bootstrapServers(), "linger.ms", 5,
            "batch.size", 262_144);
        MirrorMakerConfig config = new MirrorMakerConfig(Map.of(MirrorMakerConfig.WHITELIST_CONFIG, topic,
            MirrorMakerConfig.OFFSET_COMMIT_INTERVAL_MS_CONFIG, 5_000L));
        try (MirrorMaker mirror = new MirrorMaker(config, List.of(new SourceCluster("live", source)), target)) {
            long start = System.nanoTime();
            mirror.start();
            while (mirror.counters().recordsOut() < count) {
                if (mirror.failure().isPresent()) {
                    throw mirror.failure().get();
                }
                Thread.sleep(5);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            return new LoadScenarios.Timed(count, count * VALUE_BYTES, seconds);
        }
    }

    void report(PrintStream p) {
        p.printf(Locale.ROOT, "%n%,d records of %d bytes in one partition; runs: %d, alternating the order; scale %s; "
            + "min / **median** / max%n%n", records, VALUE_BYTES, runs, Double.toString(scale));
        p.println("| reading the topic | records/s | MB/s | seconds |");
        p.println("| --- | --- | --- | --- |");
        p.println("| " + CONSUMER + " | " + triple(consumer, LoadScenarios.Timed::recordsPerSecond) + " | "
            + triple(consumer, LoadScenarios.Timed::megabytesPerSecond) + " | " + triple(consumer, LoadScenarios.Timed::seconds) + " |");
        p.println("| " + MIRROR + " | " + triple(mirror, LoadScenarios.Timed::recordsPerSecond) + " | "
            + triple(mirror, LoadScenarios.Timed::megabytesPerSecond) + " | " + triple(mirror, LoadScenarios.Timed::seconds) + " |");
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < Math.min(consumer.size(), mirror.size()); i++) {
            ratios.add(mirror.get(i).recordsPerSecond() / consumer.get(i).recordsPerSecond());
        }
        p.println("| mirror / consumer | " + triple(ratios, r -> r) + " | | |");
    }

    private static <T> String triple(List<T> values, java.util.function.ToDoubleFunction<T> f) {
        double[] s = BrokerComparison.minMedianMax(values.stream().map(f::applyAsDouble).toList());
        return BrokerComparison.format(s[0]) + " / **" + BrokerComparison.format(s[1]) + "** / "
            + BrokerComparison.format(s[2]);
    }
}
