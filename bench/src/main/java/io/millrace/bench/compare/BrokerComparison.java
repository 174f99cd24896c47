package io.millrace.bench.compare;

import io.millrace.bench.compare.Scenarios.ConsumerMode;
import io.millrace.bench.compare.Scenarios.Measurement;
import io.millrace.bench.compare.Scenarios.ProducerMode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bin/millrace bench [--scale S] [--quick]}: Millrace's broker against Apache Kafka's
 * broker, the same workloads with Kafka's Java clients, run after run in alternation (Millrace
 * then Kafka in odd rounds, Kafka then Millrace in even ones), each run against a freshly started broker in its own JVM with the
 * same heap and its data on the same filesystem. Prints a Markdown table of every figure as
 * min / median / max over the runs, with the Millrace/Kafka ratio of each run pair, and writes the
 * same as JSON to {@code <out>/results.json}.
 *
 * <p>Options: {@code --scale S} multiplies every message count (default 1); {@code --quick} is a
 * smoke run (scale 0.02, 2 runs each) that checks every scenario produces numbers; {@code --runs N}
 * (default 3); {@code --heap SIZE} (default 1g); {@code --out DIR} (default
 * {@code bench/results/<timestamp>}); {@code --data-dir DIR}, the parent of the brokers' data
 * (default {@code java.io.tmpdir}); {@code --no-warmup}.
 *
 * <p>Before the measured runs, one unreported warm-up round (Kafka, then Millrace, at a fifth of
 * the message counts) warms this JVM's client code, which the first measured run would otherwise
 * pay for alone. {@code --quick} skips it.
 */
public final class BrokerComparison {

    static final String MILLRACE = "millrace";
    static final String KAFKA = "kafka";

    /** Message counts at scale 1. */
    static final Map<ProducerMode, Long> PRODUCER_COUNTS = Map.of(
        ProducerMode.BATCH_1, 20_000L, ProducerMode.BATCH_50, 200_000L, ProducerMode.TUNED, 500_000L);
    static final long CONSUMER_COUNT = 500_000L;
    /** {@code --quick}: small enough for CI (well under 2 minutes), enough runs for a median. */
    static final double QUICK_SCALE = 0.02;
    static final int QUICK_RUNS = 2;

    /** One reported figure: its values per side, run by run. */
    static final class Figure {
        final String scenario;
        final String metric;
        final Map<String, List<Double>> values = new LinkedHashMap<>();

        Figure(String scenario, String metric) {
            this.scenario = scenario;
            this.metric = metric;
            values.put(MILLRACE, new ArrayList<>());
            values.put(KAFKA, new ArrayList<>());
        }

        List<Double> ratios() {
            List<Double> m = values.get(MILLRACE);
            List<Double> k = values.get(KAFKA);
            List<Double> r = new ArrayList<>();
            for (int i = 0; i < Math.min(m.size(), k.size()); i++) {
                r.add(m.get(i) / k.get(i));
            }
            return r;
        }
    }

    /** The warm-up round's message counts, as a fraction of the measured runs'. */
    static final double WARMUP_FRACTION = 0.2;

    double scale;
    boolean warmup = true;
    final int runs;
    final String heap;
    final Path out;
    final Path dataParent;
    final Map<String, Figure> figures = new LinkedHashMap<>();

    BrokerComparison(double scale, int runs, String heap, Path out, Path dataParent) {
        this.scale = scale;
        this.runs = runs;
        this.heap = heap;
        this.out = out;
        this.dataParent = dataParent;
    }

    public static void main(String[] args) throws Exception {
        double scale = 1;
        int runs = 3;
        boolean quick = false;
        boolean noWarmup = false;
        String heap = "1g";
        Path out = null;
        Path data = Path.of(System.getProperty("java.io.tmpdir"));
        Double explicitScale = null;
        Integer explicitRuns = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--quick" -> quick = true;
                case "--no-warmup" -> noWarmup = true;
                case "--scale" -> explicitScale = Double.parseDouble(value(args, ++i, a));
                case "--runs" -> explicitRuns = Integer.parseInt(value(args, ++i, a));
                case "--heap" -> heap = value(args, ++i, a);
                case "--out" -> out = Path.of(value(args, ++i, a));
                case "--data-dir" -> data = Path.of(value(args, ++i, a));
                case "-h", "--help" -> {
                    System.out.println("Usage: bench [--scale S] [--quick] [--runs N] [--no-warmup] [--heap 1g] [--out DIR] [--data-dir DIR]");
                    return;
                }
                default -> {
                    System.err.println("bench: unknown option " + a);
                    System.exit(2);
                }
            }
        }
        if (quick) {
            scale = QUICK_SCALE;
            runs = QUICK_RUNS;
        }
        if (explicitScale != null) {
            scale = explicitScale;
        }
        if (explicitRuns != null) {
            runs = explicitRuns;
        }
        if (out == null) {
            out = Path.of("bench", "results", LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        }
        BrokerComparison bench = new BrokerComparison(scale, runs, heap, out, data);
        bench.warmup = !quick && !noWarmup;
        bench.run();
        bench.report(System.out);
        Path json = bench.writeJson();
        System.out.println();
        System.out.println("Results: " + json);
        List<String> missing = bench.missing();
        if (!missing.isEmpty()) {
            System.err.println("bench: no numbers for " + missing);
            System.exit(1);
        }
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            System.err.println("bench: " + option + " needs a value");
            System.exit(2);
        }
        return args[i];
    }

    long count(long atScaleOne) {
        return Math.max(100, Math.round(atScaleOne * scale));
    }

    void run() throws Exception {
        Files.createDirectories(out.resolve("logs"));
        Path parent = Files.createTempDirectory(dataParent, "millrace-bench-");
        // the brokers' own hooks stop them and delete their directories; this one their parent
        Thread cleanup = new Thread(() -> BrokerProcess.deleteRecursively(parent), "bench-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            for (int run = warmup ? 0 : 1; run <= runs; run++) {
                for (String side : order(run)) {
                    Path log = out.resolve("logs").resolve(side + "-run" + run + ".log");
                    System.err.printf(run == 0 ? "bench: warm-up (not reported), %3$s%n" : "bench: run %d of %d, %s%n",
                        run, runs, side);
                    try (BrokerProcess broker = side.equals(MILLRACE)
                            ? new MillraceBroker(parent, log, heap) : new KafkaBroker(parent, log, heap)) {
                        broker.start();
                        runScenarios(side, broker, run == 0);
                    }
                }
            }
        } finally {
            BrokerProcess.deleteRecursively(parent);
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
    }

    /**
     * Which broker goes first in a round: A B, then B A, and so on, so that whatever the machine
     * does early in a round (a cold page cache, the previous run's writeback) does not always
     * land on the same side.
     */
    static List<String> order(int run) {
        return run % 2 == 1 ? List.of(MILLRACE, KAFKA) : List.of(KAFKA, MILLRACE);
    }

    private void runScenarios(String side, BrokerProcess broker, boolean warmingUp) throws Exception {
        String bootstrap = broker.bootstrapServers();
        double measuredScale = scale;
        if (warmingUp) {
            scale = scale * WARMUP_FRACTION;
        }
        try {
            runScenarios(side, broker, bootstrap, warmingUp);
        } finally {
            scale = measuredScale;
        }
    }

    private void runScenarios(String side, BrokerProcess broker, String bootstrap, boolean warmingUp) throws Exception {
        for (ProducerMode mode : List.of(ProducerMode.BATCH_1, ProducerMode.BATCH_50, ProducerMode.TUNED)) {
            String topic = "produce-" + mode.name().toLowerCase(Locale.ROOT).replace('_', '-');
            Scenarios.createTopic(bootstrap, topic);
            long n = count(PRODUCER_COUNTS.get(mode));
            Measurement m = Scenarios.produce(bootstrap, topic, mode, n);
            add("1. " + mode.label, "records/s", side, m.recordsPerSecond(), warmingUp);
            add("1. " + mode.label, "MB/s", side, m.megabytesPerSecond(), warmingUp);
            add("1. " + mode.label, "records/request", side, m.recordsPerRequest(), warmingUp);
            add("4. storage after " + mode.label, "bytes/message beyond payload", side,
                Scenarios.storageOverhead(broker.logDir(), topic, n), warmingUp);
            System.err.printf("bench:   %s %s: %.0f records/s (%.1f records/request)%n", side, mode.label,
                m.recordsPerSecond(), m.recordsPerRequest());
        }
        String topic = "consume";
        Scenarios.createTopic(bootstrap, topic);
        long n = count(CONSUMER_COUNT);
        Scenarios.produce(bootstrap, topic, ProducerMode.FILL, n);
        for (ConsumerMode mode : ConsumerMode.values()) {
            Measurement m = Scenarios.consume(bootstrap, topic, mode, n);
            add("2. " + mode.label, "records/s", side, m.recordsPerSecond(), warmingUp);
            add("2. " + mode.label, "MB/s", side, m.megabytesPerSecond(), warmingUp);
            add("2. " + mode.label, "records/fetch", side, m.recordsPerRequest(), warmingUp);
            System.err.printf("bench:   %s %s: %.0f records/s (%.1f records/fetch)%n", side, mode.label,
                m.recordsPerSecond(), m.recordsPerRequest());
        }
    }

    private void add(String scenario, String metric, String side, double value, boolean warmingUp) {
        if (!warmingUp) {
            add(scenario, metric, side, value);
        }
    }

    void add(String scenario, String metric, String side, double value) {
        figures.computeIfAbsent(scenario + "|" + metric, k -> new Figure(scenario, metric)).values.get(side).add(value);
    }

    /** The figures lacking a finite value for some run of either side. */
    List<String> missing() {
        List<String> missing = new ArrayList<>();
        for (Figure f : figures.values()) {
            for (List<Double> v : f.values.values()) {
                if (v.size() != runs || v.stream().anyMatch(d -> !Double.isFinite(d))) {
                    missing.add(f.scenario + " " + f.metric);
                    break;
                }
            }
        }
        if (figures.isEmpty()) {
            missing.add("every scenario");
        }
        return missing;
    }

    static double[] minMedianMax(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        if (sorted.length == 0) {
            return new double[] {Double.NaN, Double.NaN, Double.NaN};
        }
        int n = sorted.length;
        double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        return new double[] {sorted[0], median, sorted[n - 1]};
    }

    static String format(double v) {
        if (!Double.isFinite(v)) {
            return "n/a";
        }
        double a = Math.abs(v);
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        return String.format(Locale.ROOT, a >= 10 ? "%.1f" : "%.2f", v);
    }

    private static String triple(List<Double> values) {
        double[] s = minMedianMax(values);
        return format(s[0]) + " / **" + format(s[1]) + "** / " + format(s[2]);
    }

    void report(PrintStream p) {
        p.println();
        p.printf(Locale.ROOT, "%d runs per broker, alternating (Millrace first in odd rounds, Kafka first in even ones); scale %s; heap %s each; min / **median** / max%n%n",
            runs, format(scale), heap);
        p.println("| scenario | metric | Millrace | Kafka | Millrace/Kafka |");
        p.println("| --- | --- | --- | --- | --- |");
        for (Figure f : figures.values()) {
            p.println("| " + f.scenario + " | " + f.metric + " | " + triple(f.values.get(MILLRACE)) + " | "
                + triple(f.values.get(KAFKA)) + " | " + triple(f.ratios()) + " |");
        }
    }

    Path writeJson() throws IOException {
        StringBuilder j = new StringBuilder();
        j.append("{\n");
        j.append("  \"scale\": ").append(num(scale)).append(",\n");
        j.append("  \"runs\": ").append(runs).append(",\n");
        j.append("  \"heap\": ").append(str(heap)).append(",\n");
        j.append("  \"clients\": ").append(str("Apache Kafka Java clients " + org.apache.kafka.common.utils.AppInfoParser.getVersion())).append(",\n");
        j.append("  \"machine\": {\"processors\": ").append(Runtime.getRuntime().availableProcessors())
            .append(", \"os\": ").append(str(System.getProperty("os.name") + " " + System.getProperty("os.version")))
            .append(", \"java\": ").append(str(System.getProperty("java.vm.name") + " " + System.getProperty("java.version")))
            .append("},\n");
        j.append("  \"figures\": [\n");
        int i = 0;
        for (Figure f : figures.values()) {
            j.append("    {\"scenario\": ").append(str(f.scenario)).append(", \"metric\": ").append(str(f.metric));
            for (Map.Entry<String, List<Double>> e : f.values.entrySet()) {
                j.append(", ").append(str(e.getKey())).append(": ").append(series(e.getValue()));
            }
            j.append(", \"ratio\": ").append(series(f.ratios())).append("}");
            j.append(++i < figures.size() ? ",\n" : "\n");
        }
        j.append("  ]\n}\n");
        Path file = out.resolve("results.json");
        Files.writeString(file, j.toString(), StandardCharsets.UTF_8);
        return file;
    }

    private static String series(List<Double> values) {
        double[] s = minMedianMax(values);
        StringBuilder b = new StringBuilder("{\"runs\": [");
        for (int i = 0; i < values.size(); i++) {
            b.append(i > 0 ? ", " : "").append(num(values.get(i)));
        }
        return b.append("], \"min\": ").append(num(s[0])).append(", \"median\": ").append(num(s[1]))
            .append(", \"max\": ").append(num(s[2])).append("}").toString();
    }

    private static String num(double v) {
        return Double.isFinite(v) ? Double.toString(v) : "null";
    }

    private static String str(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
