package io.millrace.bench.tools;

import io.millrace.bench.storage.BatchFixture;
import io.millrace.bench.storage.PartitionLogBenchmark;
import io.millrace.bench.tools.StorageTable.Measurement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.ListStatistics;

/**
 * Runs {@link PartitionLogBenchmark} (the partition log's append and read beside raw
 * {@code FileChannel} I/O) through JMH with {@code -prof gc}, then prints a Markdown table of
 * records/s, MB/s and the log/raw ratios, and whether the target (80% of raw at
 * 50 × 200 B) is met.
 *
 * <pre>
 * java [-Dmillrace.bench.dir=DIR] -cp bench/target/millrace-benchmarks.jar io.millrace.bench.tools.StorageReport \
 *     [--rounds 1] [--warmup 3] [--iterations 5] [--time 2] [--batch-sizes 1,50,1000] \
 *     [--ops rawWrite,logAppend,rawRead,logRead] [--no-gc]
 * </pre>
 *
 * <p>On a shared machine the load drifts over minutes, and JMH alone would run every logAppend
 * before any rawWrite. So each log operation runs right next to its raw counterpart, batch size
 * by batch size, one fork each; with {@code --rounds N} the whole sequence repeats, the pair's
 * order alternating, and the table pools the measurement iterations of all rounds.
 *
 * <p>System properties starting with {@code millrace.bench.} are passed on to the forked benchmark
 * JVMs ({@code millrace.bench.dir}, {@code millrace.bench.segmentBytes},
 * {@code millrace.bench.readFileBytes}).
 */
public final class StorageReport {

    private static final double TARGET = 0.8;
    private static final int TARGET_BATCH_SIZE = 50;
    private static final String PROPERTY_PREFIX = "millrace.bench.";
    private static final List<List<String>> PAIRS = List.of(List.of("rawWrite", "logAppend"), List.of("rawRead", "logRead"));

    private StorageReport() {
    }

    public static void main(String[] args) throws RunnerException {
        Settings settings;
        try {
            settings = Settings.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("storage-report: " + e.getMessage());
            System.err.println(Settings.USAGE);
            System.exit(2);
            return;
        }
        StorageTable table = new StorageTable(runAll(settings), BatchFixture::batchBytes);
        System.out.println();
        System.out.print(table.markdown());
        System.out.println();
        System.out.println(table.verdict(TARGET_BATCH_SIZE, TARGET));
    }

    /** Every (op, batch size) of the settings, in the interleaved order; one measurement each. */
    static List<Measurement> runAll(Settings settings) throws RunnerException {
        Map<String, List<RunResult>> byKey = new LinkedHashMap<>();
        for (int round = 0; round < settings.rounds; round++) {
            for (String batchSize : settings.batchSizes) {
                for (String op : runOrder(settings.ops, round)) {
                    RunResult result = new Runner(jmhOptions(settings, op, batchSize).build()).runSingle();
                    byKey.computeIfAbsent(op + "/" + batchSize, k -> new ArrayList<>()).add(result);
                }
            }
        }
        return byKey.values().stream().map(StorageReport::measurement).toList();
    }

    /** Each raw op next to its log op, the pair's order alternating from round to round. */
    static List<String> runOrder(List<String> ops, int round) {
        List<String> order = new ArrayList<>();
        for (List<String> pair : PAIRS) {
            List<String> wanted = new ArrayList<>(pair);
            wanted.retainAll(ops);
            if (round % 2 == 1) {
                Collections.reverse(wanted);
            }
            order.addAll(wanted);
        }
        return order;
    }

    static ChainedOptionsBuilder jmhOptions(Settings settings, String op, String batchSize) {
        ChainedOptionsBuilder options = new OptionsBuilder()
            .include(Pattern.quote(PartitionLogBenchmark.class.getName() + "." + op) + "$")
            .forks(1)
            .warmupIterations(settings.warmup)
            .warmupTime(TimeValue.seconds(settings.seconds))
            .measurementIterations(settings.iterations)
            .measurementTime(TimeValue.seconds(settings.seconds))
            .param("batchSize", batchSize)
            .jvmArgsAppend(forwardedProperties());
        if (settings.gc) {
            options.addProfiler(GCProfiler.class);
        }
        return options;
    }

    /** {@code -Dmillrace.bench.*} of this JVM, for the forks. */
    private static String[] forwardedProperties() {
        return System.getProperties().stringPropertyNames().stream()
            .filter(name -> name.startsWith(PROPERTY_PREFIX))
            .sorted()
            .map(name -> "-D" + name + "=" + System.getProperty(name))
            .toArray(String[]::new);
    }

    /** One (op, batch size) over its rounds: every measurement iteration pooled. */
    static Measurement measurement(List<RunResult> rounds) {
        RunResult first = rounds.get(0);
        String benchmark = first.getParams().getBenchmark();
        String op = benchmark.substring(benchmark.lastIndexOf('.') + 1);
        int batchSize = Integer.parseInt(first.getParams().getParam("batchSize"));
        ListStatistics scores = new ListStatistics();
        List<Double> values = new ArrayList<>();
        double alloc = 0;
        for (RunResult round : rounds) {
            for (BenchmarkResult fork : round.getBenchmarkResults()) {
                for (IterationResult iteration : fork.getIterationResults()) {
                    scores.addValue(iteration.getPrimaryResult().getScore());
                    values.add(iteration.getPrimaryResult().getScore());
                }
            }
            alloc += allocationPerOp(round.getSecondaryResults()) / rounds.size();
        }
        double error = scores.getN() > 1 ? scores.getMeanErrorAt(0.999) : Double.NaN;
        return new Measurement(op, batchSize, scores.getMean(), error, median(values), alloc);
    }

    static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    /** JMH 1.37 names it {@code gc.alloc.rate.norm}; older versions prefix a middle dot. NaN without -prof gc. */
    private static double allocationPerOp(Map<String, Result> secondary) {
        return secondary.entrySet().stream()
            .filter(e -> e.getKey().endsWith("gc.alloc.rate.norm"))
            .mapToDouble(e -> e.getValue().getScore())
            .findFirst()
            .orElse(Double.NaN);
    }

    /** The command line, parsed; defaults are the settings docs/performance.md was measured with. */
    static final class Settings {

        static final String USAGE = "usage: StorageReport [--rounds N] [--warmup N] [--iterations N] [--time SECONDS]"
            + " [--batch-sizes 1,50,1000] [--ops " + String.join(",", StorageTable.OPS) + "] [--no-gc]";

        int rounds = 1;
        int warmup = 3;
        int iterations = 5;
        int seconds = 2;
        List<String> batchSizes = List.of("1", "50", "1000");
        List<String> ops = StorageTable.OPS;
        boolean gc = true;

        static Settings parse(String... args) {
            Settings settings = new Settings();
            for (int i = 0; i < args.length; i++) {
                String flag = args[i];
                if (flag.equals("--no-gc")) {
                    settings.gc = false;
                } else if (i + 1 < args.length) {
                    settings.set(flag, args[++i]);
                } else {
                    throw new IllegalArgumentException("missing value after " + flag);
                }
            }
            return settings;
        }

        private void set(String flag, String value) {
            switch (flag) {
                case "--rounds" -> rounds = count(flag, value, 1);
                case "--warmup" -> warmup = count(flag, value, 0);
                case "--iterations" -> iterations = count(flag, value, 1);
                case "--time" -> seconds = count(flag, value, 1);
                case "--batch-sizes" -> batchSizes = list(value);
                case "--ops" -> ops = ops(value);
                default -> throw new IllegalArgumentException("unknown option " + flag);
            }
        }

        private static int count(String flag, String value, int min) {
            try {
                int n = Integer.parseInt(value);
                if (n >= min) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException(flag + " needs a whole number of at least " + min + ", not " + value);
        }

        private static List<String> list(String csv) {
            return Arrays.stream(csv.split(",")).map(String::trim).filter(v -> !v.isEmpty()).toList();
        }

        private static List<String> ops(String csv) {
            List<String> ops = list(csv);
            for (String op : ops) {
                if (!StorageTable.OPS.contains(op)) {
                    throw new IllegalArgumentException("unknown op " + op + "; known: " + StorageTable.OPS);
                }
            }
            return ops;
        }
    }
}
