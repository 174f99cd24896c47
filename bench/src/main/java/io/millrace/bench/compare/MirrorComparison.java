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
 * one Millrace broker to another, next to the plain consumer reading the same topic, in the same run; then
 * the Millrace mirror next to Apache Kafka's MirrorMaker 2 between two Apache Kafka brokers (the pair of
 * brokers MirrorMaker 2 runs on). Each broker (with its ZooKeeper) and MirrorMaker 2 run in JVMs of their
 * own; the Millrace mirror and the consumer run in this one. One single-partition topic per source broker is
 * filled with {@value #RECORD_COUNT} × scale records of {@value #VALUE_BYTES} random bytes, unmeasured;
 * then each run reads it with the consumer alone (counting value bytes) and mirrors all of it (a new group
 * or a new source alias each run, so from the first offset), in one order in odd runs and the reverse in
 * even ones, after {@value #WARM_UP_ROUNDS} unreported rounds of the same between the Millrace brokers. A
 * mirror is timed from outside by {@link CopyTimer}, in its steady state. Prints records/s and
 * MB/s (value bytes) as min / median / max, and the ratios per run.
 *
 * <p>Each Millrace round also writes the same number of records of the same size into the second broker with
 * a producer alone, with the mirror's producer settings ({@link #OFFLINE_PRODUCER} plus acks=all, which the
 * mirror forces; idempotent, five requests in flight): the most the mirror could copy if reading cost
 * nothing. The consumer reads from the page cache; the mirror also writes, so this is the ceiling its write
 * side sets.
 */
public final class MirrorComparison {

    static final long RECORD_COUNT = 5_000_000L;
    static final int VALUE_BYTES = 100;
    static final double QUICK_SCALE = 0.01;
    static final int QUICK_RUNS = 2;
    static final int WARM_UP_ROUNDS = 2;
    static final String CONSUMER = "consumer alone";
    static final String MIRROR = "mirror maker, to a second broker";
    static final String PRODUCER = "producer alone, the mirror's settings, to the second broker";
    /** The offline producer's settings in every Millrace mirror this bench runs. */
    static final Map<String, Object> OFFLINE_PRODUCER = Map.of("linger.ms", 5, "batch.size", 262_144);
    static final String MILLRACE_ON_KAFKA = "Millrace mirror, Kafka broker to Kafka broker";
    static final String MM2_ON_KAFKA = "Kafka MirrorMaker 2, Kafka broker to Kafka broker";

    private final double scale;
    private final int runs;
    private final List<LoadScenarios.Timed> consumer = new ArrayList<>();
    private final List<LoadScenarios.Timed> mirror = new ArrayList<>();
    private final List<LoadScenarios.Timed> producer = new ArrayList<>();
    private final List<LoadScenarios.Timed> millraceOnKafka = new ArrayList<>();
    private final List<LoadScenarios.Timed> mm2OnKafka = new ArrayList<>();
    private String mm2Skipped;
    private MirrorLatency.Result latency;
    static final int LATENCY_RATE = 10_000;
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
            fill(live.bootstrapServers(), "events", records);
            // unreported rounds of the full size: a run of a fraction of a second is otherwise mostly JIT warm-up
            for (int run = 1 - WARM_UP_ROUNDS; run <= 0; run++) {
                round(run, live, offline, "events", records);
            }
            for (int run = 1; run <= runs; run++) {
                round(run, live, offline, "events", records);
            }
            latency = MirrorLatency.measure(live.bootstrapServers(), live.zookeeperConnect(), offline.bootstrapServers(),
                LATENCY_RATE, Math.max(3, 60 * scale));
            System.err.printf(Locale.ROOT, "bench-mirror: latency at %,d records/s: p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                LATENCY_RATE, latency.p50(), latency.p99(), latency.max());
            if (MirrorMaker2Process.lib() == null) {
                mm2Skipped = "MirrorMaker 2's classpath is not built (mvn -B package -pl bench/mirror-maker-2)";
            } else {
                onKafka(parent, live.zookeeperConnect());
            }
        } finally {
            BrokerProcess.deleteRecursively(parent);
        }
    }

    /** The Millrace mirror and MirrorMaker 2 between two Kafka brokers; the Millrace mirror's group lives in {@code groups}. */
    private void onKafka(Path parent, String groups) throws Exception {
        try (KafkaBroker live = new KafkaBroker(parent, parent.resolve("kafka-live.log"), "1g");
             KafkaBroker offline = new KafkaBroker(parent, parent.resolve("kafka-offline.log"), "1g")) {
            live.start();
            offline.start();
            fill(live.bootstrapServers(), "events", records);
            for (int run = 1; run <= runs; run++) {
                List<String> order = run % 2 == 1 ? List.of(MILLRACE_ON_KAFKA, MM2_ON_KAFKA) : List.of(MM2_ON_KAFKA, MILLRACE_ON_KAFKA);
                for (String side : order) {
                    primeFor(offline);
                    LoadScenarios.Timed timed = side.equals(MM2_ON_KAFKA)
                        ? mirrorMaker2(parent, live.bootstrapServers(), offline.bootstrapServers(), "mm2-run" + run)
                        : millraceMirror(live.bootstrapServers(), groups, offline.bootstrapServers(), "events",
                            "millrace-run" + run, records, "bench-kafka-mirror-" + run);
                    (side.equals(MM2_ON_KAFKA) ? mm2OnKafka : millraceOnKafka).add(timed);
                    System.err.printf(Locale.ROOT, "bench-mirror: run %d %s: %,.0f records/s, %.1f MB/s, %.1f s%n", run,
                        side, timed.recordsPerSecond(), timed.megabytesPerSecond(), timed.seconds());
                }
            }
        }
    }

    private LoadScenarios.Timed mirrorMaker2(Path parent, String source, String target, String alias) throws Exception {
        try (MirrorMaker2Process mm2 = new MirrorMaker2Process(parent, parent.resolve(alias + ".log"), alias, source, target,
                "events");
             CopyTimer timer = new CopyTimer(target, mm2.targetTopic())) {
            mm2.start();
            return timer.await(0, records, VALUE_BYTES, mm2::checkAlive);
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
        List<String> order = run % 2 == 1 ? List.of(CONSUMER, MIRROR, PRODUCER) : List.of(PRODUCER, MIRROR, CONSUMER);
        for (String side : order) {
            if (!side.equals(CONSUMER)) {
                primeFor(offline);
            }
            LoadScenarios.Timed timed = switch (side) {
                case CONSUMER -> consume(live.bootstrapServers(), topic, count);
                // an offline topic of its own per run: copies of the same records made by the runs before would
                // otherwise be found by the mirror's duplicate check (they are within its reach at small scales)
                case MIRROR -> millraceMirror(live.bootstrapServers(), live.zookeeperConnect(), offline.bootstrapServers(),
                    topic, "copy" + (run + WARM_UP_ROUNDS), count, "bench-mirror-" + run);
                default -> produceAlone(offline.bootstrapServers(), "alone-" + topic + "-" + run, count);
            };
            if (run > 0) {
                (side.equals(CONSUMER) ? consumer : side.equals(MIRROR) ? mirror : producer).add(timed);
            }
            System.err.printf(Locale.ROOT, "bench-mirror: run %d %s: %,.0f records/s, %.1f MB/s, %.1f s%n", run, side,
                timed.recordsPerSecond(), timed.megabytesPerSecond(), timed.seconds());
        }
    }

    /**
     * Before a side that writes into {@code broker}: the page cache's dirty pages written back, and
     * memory the machine has just used primed for its log ({@link PageCache}), as the main harness
     * does before a producer cell; otherwise the writes meet pages the host took back, ten times as slow.
     */
    private void primeFor(BrokerProcess broker) throws Exception {
        PageCache.writeBack();
        PageCache.prime(broker.logDir().getParent(),
            Math.max(64L << 20, 2 * records * (VALUE_BYTES + BrokerComparison.RECORD_OVERHEAD_BYTES)));
    }

    /** {@code count} records as the live topic holds them, written to {@code topic} as the mirror's producer would. */
    private static LoadScenarios.Timed produceAlone(String bootstrap, String topic, long count) throws Exception {
        Scenarios.createTopic(bootstrap, topic);
        Map<String, Object> settings = new java.util.HashMap<>(OFFLINE_PRODUCER);
        settings.put("bootstrap.servers", bootstrap);
        settings.put("acks", "all");
        byte[] value = new byte[VALUE_BYTES];
        ThreadLocalRandom.current().nextBytes(value);
        try (MillraceProducer<byte[], byte[]> alone = new MillraceProducer<>(settings, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            alone.partitionsFor(topic);
            long start = System.nanoTime();
            for (long i = 0; i < count; i++) {
                alone.send(new ProducerRecord<>(topic, 0, null, value));
            }
            alone.flush();
            return new LoadScenarios.Timed(count, count * VALUE_BYTES, (System.nanoTime() - start) / 1e9);
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

    /**
     * The Millrace mirror copying {@code topic} from {@code source} to {@code target}: into the same name, or
     * with {@code alias} given into {@code <alias>.<topic>} (topic.rename=prefix, MirrorMaker 2's naming).
     */
    private static LoadScenarios.Timed millraceMirror(String source, String groups, String target, String topic,
                                                      String alias, long count, String group) throws Exception {
        Map<String, Object> live = Map.of("bootstrap.servers", source, "zookeeper.connect", groups,
            ConsumerConfig.GROUP_ID_CONFIG, group, ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "smallest");
        Map<String, Object> offline = new java.util.HashMap<>(OFFLINE_PRODUCER);
        offline.put("bootstrap.servers", target);
        MirrorMakerConfig config = new MirrorMakerConfig(Map.of(MirrorMakerConfig.WHITELIST_CONFIG, topic,
            MirrorMakerConfig.OFFSET_COMMIT_INTERVAL_MS_CONFIG, 5_000L,
            MirrorMakerConfig.TOPIC_RENAME_CONFIG, alias == null ? MirrorMakerConfig.RENAME_NONE : MirrorMakerConfig.RENAME_PREFIX));
        String name = alias == null ? "live" : alias;
        try (CopyTimer timer = new CopyTimer(target, alias == null ? topic : alias + "." + topic);
             MirrorMaker mirror = new MirrorMaker(config, List.of(new SourceCluster(name, live)), offline)) {
            long baseline = timer.end();
            mirror.start();
            return timer.await(baseline, count, VALUE_BYTES, () -> {
                if (mirror.failure().isPresent()) {
                    throw mirror.failure().get();
                }
            });
        }
    }

    /** {@code a}'s records/s over {@code b}'s, run by run. */
    private static List<Double> perRun(List<LoadScenarios.Timed> a, List<LoadScenarios.Timed> b) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            ratios.add(a.get(i).recordsPerSecond() / b.get(i).recordsPerSecond());
        }
        return ratios;
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
        p.println("| " + PRODUCER + " | " + triple(producer, LoadScenarios.Timed::recordsPerSecond) + " | "
            + triple(producer, LoadScenarios.Timed::megabytesPerSecond) + " | " + triple(producer, LoadScenarios.Timed::seconds) + " |");
        p.println("| mirror / consumer | " + triple(perRun(mirror, consumer), r -> r) + " | | |");
        p.println("| mirror / producer alone | " + triple(perRun(mirror, producer), r -> r) + " | | |");
        p.println();
        p.printf(Locale.ROOT, "Latency at a steady %,d records/s, live send to offline fetch through the mirror, %,d records: "
            + "p50 %.1f ms, p99 %.1f ms, max %.1f ms%n%n", LATENCY_RATE, latency.records(), latency.p50(), latency.p99(),
            latency.max());
        if (mm2Skipped != null) {
            p.println("MirrorMaker 2 not run: " + mm2Skipped);
            return;
        }
        p.println("| between two Apache Kafka brokers | records/s | MB/s | seconds |");
        p.println("| --- | --- | --- | --- |");
        for (var side : List.of(Map.entry(MILLRACE_ON_KAFKA, millraceOnKafka), Map.entry(MM2_ON_KAFKA, mm2OnKafka))) {
            List<LoadScenarios.Timed> t = side.getValue();
            p.println("| " + side.getKey() + " | " + triple(t, LoadScenarios.Timed::recordsPerSecond) + " | "
                + triple(t, LoadScenarios.Timed::megabytesPerSecond) + " | " + triple(t, LoadScenarios.Timed::seconds) + " |");
        }
        p.println("| Millrace mirror / MirrorMaker 2 | " + triple(perRun(millraceOnKafka, mm2OnKafka), r -> r) + " | | |");
    }

    private static <T> String triple(List<T> values, java.util.function.ToDoubleFunction<T> f) {
        double[] s = RunStatistics.minMedianMax(values.stream().map(f::applyAsDouble).toList());
        return RunStatistics.format(s[0]) + " / **" + RunStatistics.format(s[1]) + "** / "
            + RunStatistics.format(s[2]);
    }
}
