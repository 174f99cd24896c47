package io.millrace.bench.groups;

import static io.millrace.bench.compare.OptionValues.positive;
import static io.millrace.bench.compare.OptionValues.value;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * The command line of {@code bin/millrace bench-groups}, as {@link GroupBenchmark} describes it.
 *
 * @param runs measured rounds per broker
 * @param warmup whether an unreported round comes first
 * @param commitSeconds how long each commit rate is measured
 * @param heartbeatMs the members' {@code heartbeat.interval.ms}
 * @param kafkaDefaults whether scenario 1 also runs on a Kafka broker with its default initial rebalance delay
 */
record GroupOptions(int runs, boolean warmup, double commitSeconds, int heartbeatMs, String heap, Path out, Path dataDir,
                    boolean kafkaDefaults) {

    static final String USAGE = "Usage: bench-groups [--runs N] [--quick] [--no-warmup] [--commit-seconds S]"
        + " [--heartbeat-ms MS] [--no-kafka-defaults] [--heap 1g] [--out DIR] [--data-dir DIR]";

    static final int DEFAULT_RUNS = 5;
    static final double DEFAULT_COMMIT_SECONDS = 5;
    /**
     * Kafka's default is 3 s. An old member learns of a rebalance from its next heartbeat's answer, so with
     * 3 s the rebalance figures are mostly a random wait of 0 to 3 s on either broker; 100 ms leaves the
     * coordinators' own work to measure.
     */
    static final int DEFAULT_HEARTBEAT_MS = 100;
    static final int QUICK_RUNS = 2;
    static final double QUICK_COMMIT_SECONDS = 1;

    /** The options in {@code args}; null for {@code --help}; IllegalArgumentException on misuse. */
    static GroupOptions parse(String... args) {
        Builder b = new Builder();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--quick" -> b.quick = true;
                case "--no-warmup" -> b.warmup = false;
                case "--no-kafka-defaults" -> b.kafkaDefaults = false;
                case "--runs" -> b.runs = positive(a, Integer.parseInt(value(args, ++i, a)));
                case "--commit-seconds" -> b.commitSeconds = positive(a, Double.parseDouble(value(args, ++i, a)));
                case "--heartbeat-ms" -> b.heartbeatMs = positive(a, Integer.parseInt(value(args, ++i, a)));
                case "--heap" -> b.heap = value(args, ++i, a);
                case "--out" -> b.out = Path.of(value(args, ++i, a));
                case "--data-dir" -> b.dataDir = Path.of(value(args, ++i, a));
                case "-h", "--help" -> {
                    return null;
                }
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        return b.build();
    }

    private static final class Builder {
        boolean quick;
        boolean warmup = true;
        boolean kafkaDefaults = true;
        Integer runs;
        Double commitSeconds;
        int heartbeatMs = DEFAULT_HEARTBEAT_MS;
        String heap = "1g";
        Path out;
        Path dataDir = Path.of(System.getProperty("java.io.tmpdir"));

        /** {@code --quick} sets the run count and durations that explicit options then override. */
        GroupOptions build() {
            int r = runs != null ? runs : quick ? QUICK_RUNS : DEFAULT_RUNS;
            double s = commitSeconds != null ? commitSeconds : quick ? QUICK_COMMIT_SECONDS : DEFAULT_COMMIT_SECONDS;
            Path o = out != null ? out : Path.of("bench", "results",
                "groups-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
            return new GroupOptions(r, warmup && !quick, s, heartbeatMs, heap, o, dataDir, kafkaDefaults);
        }
    }
}
