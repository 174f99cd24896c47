package io.millrace.bench.compare;

import io.millrace.bench.compare.LoadScenarios.Load;
import io.millrace.bench.compare.LoadScenarios.Timed;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * {@code bin/millrace bench-load [--scale S] [--runs N] [--quick]}: loading a topic into Hadoop against
 * reading it with the consumer alone, in the same run. A Millrace broker (and its ZooKeeper) runs in its
 * own JVM, a schema registry on the broker's ZooKeeper in this one. One single-partition topic is filled
 * with {@value #EVENT_COUNT} × scale Avro events of about 200 B ({@link LoadEvents}), unmeasured; then
 * each run reads all of it three ways, in one order in odd runs and the reverse in even ones: the
 * consumer alone counting value bytes, the consumer alone decoding every value as the InputFormat's avro
 * values are, and one load on the LocalJobRunner into a fresh data root. Prints a Markdown table of records/s and MB/s
 * (value bytes) as min / median / max over the runs, with the ratio load/consumer of each run.
 *
 * <p>Before the measured runs a warm-up round over a topic of a fiftieth of the events (at least 1,000)
 * warms this JVM's code for all three and is not reported.
 */
public final class LoadComparison {

    static final long EVENT_COUNT = 10_000_000L;
    /** The hours the events' times cover. */
    static final int HOURS = 12;
    static final double QUICK_SCALE = 0.005;
    static final int QUICK_RUNS = 2;

    static final String BYTES = "consumer alone, bytes only";
    static final String DECODED = "consumer alone, decoding Avro";
    static final String LOAD = "load, LocalJobRunner";

    /** A filled topic: its name, how many messages and how many bytes of values it holds. */
    record Topic(String name, long messages, long valueBytes) {
    }

    private final double scale;
    private final int runs;
    private final Path dataParent;
    private final Map<String, List<Timed>> results = new LinkedHashMap<>();
    private final List<Load> loads = new ArrayList<>();
    private Topic topic;

    LoadComparison(double scale, int runs, Path dataParent) {
        this.scale = scale;
        this.runs = runs;
        this.dataParent = dataParent;
        for (String side : List.of(BYTES, DECODED, LOAD)) {
            results.put(side, new ArrayList<>());
        }
    }

    public static void main(String[] args) throws Exception {
        RunOptions options = RunOptions.parse(args, "bench-load [--scale S] [--runs N] [--quick]",
            3, QUICK_SCALE, QUICK_RUNS);
        LoadComparison bench = new LoadComparison(options.scale(), options.runs(), Path.of(System.getProperty("java.io.tmpdir")));
        bench.run();
        bench.report(System.out);
    }

    void run() throws Exception {
        Path parent = Files.createTempDirectory(dataParent, "millrace-load-bench-");
        try (MillraceBroker broker = new MillraceBroker(parent, parent.resolve("broker.log"), "1g")) {
            broker.start();
            try (SchemaRegistryServer registry = SchemaRegistryServer.startLocal(broker.zookeeperConnect())) {
                measure(broker.bootstrapServers(), registry.urls().get(0), parent);
            }
        } finally {
            BrokerProcess.deleteRecursively(parent);
        }
    }

    private void measure(String bootstrap, String registryUrl, Path parent) throws Exception {
        long count = Math.max(1_000, Math.round(EVENT_COUNT * scale));
        Topic warmUp = fill(bootstrap, registryUrl, "warm-up", Math.max(1_000, count / 50));
        round(0, bootstrap, registryUrl, warmUp, parent);
        topic = fill(bootstrap, registryUrl, "events", count);
        for (int run = 1; run <= runs; run++) {
            round(run, bootstrap, registryUrl, topic, parent);
        }
    }

    private static Topic fill(String bootstrap, String registryUrl, String name, long count) throws Exception {
        Scenarios.createTopic(bootstrap, name);
        long start = System.nanoTime();
        long bytes = new LoadEvents(count, HOURS, System.currentTimeMillis())
            .fill(bootstrap, LoadScenarios.registry(registryUrl), name);
        System.err.printf(Locale.ROOT, "bench-load: filled %s with %,d events, %.1f bytes each, in %.1f s%n", name,
            count, bytes / (double) count, (System.nanoTime() - start) / 1e9);
        return new Topic(name, count, bytes);
    }

    /** The order of the three sides in a run: the consumer first in odd runs, the load first in even ones. */
    static List<String> order(int run) {
        return run % 2 == 1 ? List.of(BYTES, DECODED, LOAD) : List.of(LOAD, DECODED, BYTES);
    }

    private void round(int run, String bootstrap, String registryUrl, Topic t, Path parent) throws Exception {
        for (String side : order(run)) {
            Timed timed;
            if (side.equals(LOAD)) {
                Path dir = Files.createTempDirectory(parent, "load-");
                try {
                    Load load = LoadScenarios.load(bootstrap, registryUrl, t.name(), t.messages(), t.valueBytes(), dir);
                    timed = load.timed();
                    if (run > 0) {
                        loads.add(load);
                    }
                } finally {
                    BrokerProcess.deleteRecursively(dir);
                }
            } else {
                timed = LoadScenarios.consume(bootstrap, registryUrl, t.name(), t.messages(), side.equals(DECODED));
            }
            if (run > 0) {
                results.get(side).add(timed);
            }
            System.err.printf(Locale.ROOT, "bench-load: run %d %s: %,.0f records/s, %.1f MB/s, %.1f s%n", run, side,
                timed.recordsPerSecond(), timed.megabytesPerSecond(), timed.seconds());
        }
    }

    /** Every side's measured runs, in run order. */
    Map<String, List<Timed>> results() {
        return results;
    }

    /** The measured loads, in run order. */
    List<Load> loads() {
        return loads;
    }

    /** The measured topic (null before {@link #run()}). */
    Topic topic() {
        return topic;
    }

    void report(PrintStream p) {
        p.printf(Locale.ROOT, "%n%,d events of %.1f bytes on average (%.1f MB of values) in one partition; runs: %d, "
            + "alternating the order; scale %s; min / **median** / max%n%n", topic.messages(),
            topic.valueBytes() / (double) topic.messages(), topic.valueBytes() / 1e6, runs, Double.toString(scale));
        p.println("| reading the topic | records/s | MB/s | seconds |");
        p.println("| --- | --- | --- | --- |");
        results.forEach((side, timed) -> p.println("| " + side + " | " + triple(timed, Timed::recordsPerSecond) + " | "
            + triple(timed, Timed::megabytesPerSecond) + " | " + triple(timed, Timed::seconds) + " |"));
        for (String consumer : List.of(DECODED, BYTES)) {
            p.println("| load / " + consumer + " | " + triple(ratios(LOAD, consumer), r -> r) + " | | |");
        }
        p.printf(Locale.ROOT, "%nLoad: %s Avro files, %s bytes per event in them; of a load's time, after the job "
            + "(commit, moves, summary): %s s%n", triple(loads, l -> l.files()),
            triple(loads, l -> l.fileBytes() / (double) topic.messages()), triple(loads, Load::commitSeconds));
    }

    /** Records/s of {@code a} over {@code b}, run by run (the same ratio as MB/s: both read the same bytes). */
    private List<Double> ratios(String a, String b) {
        List<Double> ratios = new ArrayList<>();
        List<Timed> x = results.get(a);
        List<Timed> y = results.get(b);
        for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
            ratios.add(x.get(i).recordsPerSecond() / y.get(i).recordsPerSecond());
        }
        return ratios;
    }

    private static <T> String triple(List<T> values, ToDoubleFunction<T> f) {
        double[] s = RunStatistics.minMedianMax(values.stream().map(v -> f.applyAsDouble(v)).toList());
        return RunStatistics.format(s[0]) + " / **" + RunStatistics.format(s[1]) + "** / "
            + RunStatistics.format(s[2]);
    }
}
