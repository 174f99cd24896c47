package io.millrace.bench.curves;

import static io.millrace.bench.compare.OptionValues.positive;
import static io.millrace.bench.compare.OptionValues.value;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * The command line of {@code bin/millrace bench-curves}, as {@link CurveBenchmark} describes it, and the
 * sizes that follow from it.
 *
 * @param runs measured rounds per point
 * @param warmup whether an unreported round comes first
 * @param records records per throughput point, over all producers
 * @param restartBytes the data to recover at the restart curve's last step, before any scaling down for disk space
 * @param restartSegments the segments that data makes
 * @param curves the letters of the curves to run, of {@value #ALL_CURVES}
 */
record CurveOptions(int runs, boolean warmup, long records, long restartBytes, int restartSegments, String heap, Path out,
                    Path dataDir, boolean quick, String curves) {

    static final String USAGE = "Usage: bench-curves [--quick] [--runs N] [--no-warmup] [--records N] [--restart-gb G]"
        + " [--curves abcd] [--heap 1g] [--out DIR] [--data-dir DIR]";

    static final List<Integer> PARTITIONS = List.of(1, 10, 100, 1000);
    static final List<Integer> PRODUCERS = List.of(1, 10, 100);
    static final List<Integer> IDLE_CONNECTIONS = List.of(0, 100, 1000);

    static final String ALL_CURVES = "abcd";
    static final int DEFAULT_RUNS = 3;
    static final long DEFAULT_RECORDS = 5_000_000;
    static final long DEFAULT_RESTART_BYTES = 10_000_000_000L;
    static final int DEFAULT_RESTART_SEGMENTS = 1000;
    static final int QUICK_RUNS = 1;
    static final long QUICK_RECORDS = 30_000;
    static final long QUICK_RESTART_BYTES = 200_000_000L;
    static final int QUICK_RESTART_SEGMENTS = 100;

    /** The options in {@code args}; null for {@code --help}; IllegalArgumentException on misuse. */
    static CurveOptions parse(String... args) {
        Builder b = new Builder();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--quick" -> b.quick = true;
                case "--no-warmup" -> b.warmup = false;
                case "--runs" -> b.runs = positive(a, Integer.parseInt(value(args, ++i, a)));
                case "--records" -> b.records = positive(a, Long.parseLong(value(args, ++i, a)));
                case "--restart-gb" -> b.restartGb = positive(a, Double.parseDouble(value(args, ++i, a)));
                case "--curves" -> b.curves = curves(value(args, ++i, a));
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

    boolean runs(char curve) {
        return curves.indexOf(curve) >= 0;
    }

    /** The segment size that makes {@link #restartSegments()} segments of {@link #restartBytes()}. */
    int segmentBytes() {
        return (int) Math.max(1 << 20, restartBytes / restartSegments);
    }

    private static final class Builder {
        boolean quick;
        boolean warmup = true;
        Integer runs;
        Long records;
        Double restartGb;
        String curves = ALL_CURVES;
        String heap = "1g";
        Path out;
        Path dataDir = Path.of(System.getProperty("java.io.tmpdir"));

        /** {@code --quick} sets the run count and sizes that explicit options then override. */
        CurveOptions build() {
            int r = runs != null ? runs : quick ? QUICK_RUNS : DEFAULT_RUNS;
            long n = records != null ? records : quick ? QUICK_RECORDS : DEFAULT_RECORDS;
            long bytes = restartGb != null ? (long) (restartGb * 1e9) : quick ? QUICK_RESTART_BYTES : DEFAULT_RESTART_BYTES;
            int segments = quick ? QUICK_RESTART_SEGMENTS : DEFAULT_RESTART_SEGMENTS;
            Path o = out != null ? out : Path.of("bench", "results",
                "curves-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
            return new CurveOptions(r, warmup && !quick, n, bytes, segments, heap, o, dataDir, quick, curves);
        }
    }

    private static String curves(String letters) {
        if (letters.isEmpty() || !letters.chars().allMatch(c -> ALL_CURVES.indexOf(c) >= 0)) {
            throw new IllegalArgumentException("--curves takes letters of " + ALL_CURVES + ", not " + letters);
        }
        return letters;
    }
}
