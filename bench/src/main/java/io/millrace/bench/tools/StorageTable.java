package io.millrace.bench.tools;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.IntUnaryOperator;

/**
 * Turns the storage benchmarks' ops/s into the table docs/performance.md shows: records/s and
 * MB/s (10^6 bytes) per batch size and operation, and how far the log comes to the raw
 * {@code FileChannel} figure. Each operation moves exactly one batch, so records/s is ops/s
 * times the batch size and bytes/s is ops/s times the batch's size in bytes. Immutable.
 */
final class StorageTable {

    /** The operations in table order, each log operation after the raw one it is compared with. */
    static final List<String> OPS = List.of("rawWrite", "logAppend", "rawRead", "logRead");

    /**
     * One benchmark result.
     *
     * @param op             the benchmark method, e.g. {@code logAppend}
     * @param batchSize      records per batch
     * @param opsPerSecond   JMH's score: the mean over measurement iterations
     * @param error          JMH's 99.9% confidence half-width of the score, NaN if unknown
     * @param medianOps      the median of the iterations' scores, which shrugs off an iteration
     *                       that another process on the machine slowed down
     * @param allocBytesPerOp {@code -prof gc}'s {@code gc.alloc.rate.norm}, NaN if not measured
     */
    record Measurement(String op, int batchSize, double opsPerSecond, double error, double medianOps,
                       double allocBytesPerOp) {
    }

    private final List<Measurement> measurements;
    private final IntUnaryOperator batchBytes;

    /** @param batchBytes the size in bytes of a batch of n records */
    StorageTable(List<Measurement> measurements, IntUnaryOperator batchBytes) {
        this.measurements = measurements.stream()
            .sorted(Comparator.comparingInt(Measurement::batchSize).thenComparingInt(m -> OPS.indexOf(m.op())))
            .toList();
        this.batchBytes = batchBytes;
    }

    String markdown() {
        StringBuilder out = new StringBuilder();
        out.append("| batch | op | ops/s | records/s | MB/s | ± MB/s | log/raw (mean) | log/raw (median) | alloc B/op |\n");
        out.append("|---|---|--:|--:|--:|--:|--:|--:|--:|\n");
        for (Measurement m : measurements) {
            out.append(row(m)).append('\n');
        }
        return out.toString();
    }

    private String row(Measurement m) {
        int bytes = batchBytes.applyAsInt(m.batchSize());
        Optional<Measurement> raw = rawFor(m);
        return String.format(Locale.ROOT, "| %d × 200 B (%,d B) | %s | %,.0f | %,.0f | %,.1f | %s | %s | %s | %s |",
            m.batchSize(), bytes, m.op(), m.opsPerSecond(), m.opsPerSecond() * m.batchSize(),
            megabytes(m.opsPerSecond(), bytes), Double.isNaN(m.error()) ? "" : String.format(Locale.ROOT, "%,.1f",
                megabytes(m.error(), bytes)),
            raw.map(r -> percent(m.opsPerSecond() / r.opsPerSecond())).orElse(""),
            raw.map(r -> percent(m.medianOps() / r.medianOps())).orElse(""),
            Double.isNaN(m.allocBytesPerOp()) ? "" : String.format(Locale.ROOT, "%,.0f", m.allocBytesPerOp()));
    }

    /** The log operation's ratio to its raw counterpart at a batch size, if both were measured. */
    Optional<Double> ratio(String logOp, int batchSize) {
        return find(logOp, batchSize).flatMap(m -> rawFor(m).map(r -> m.opsPerSecond() / r.opsPerSecond()));
    }

    /** The target, stated against the measured ratios at 50 records per batch. */
    String verdict(int batchSize, double target) {
        return String.format(Locale.ROOT, "Target at %d × 200 B, log ≥ %s of raw (means): append %s, read %s.",
            batchSize, percent(target), verdictPart("logAppend", "rawWrite", batchSize, target),
            verdictPart("logRead", "rawRead", batchSize, target));
    }

    private String verdictPart(String logOp, String rawOp, int batchSize, double target) {
        return ratio(logOp, batchSize)
            .map(r -> percent(r) + " of " + rawOp + (r >= target ? " (met)" : " (NOT met)"))
            .orElse("not measured");
    }

    private Optional<Measurement> rawFor(Measurement m) {
        return switch (m.op()) {
            case "logAppend" -> find("rawWrite", m.batchSize());
            case "logRead" -> find("rawRead", m.batchSize());
            default -> Optional.empty();
        };
    }

    private Optional<Measurement> find(String op, int batchSize) {
        return measurements.stream().filter(m -> m.op().equals(op) && m.batchSize() == batchSize).findFirst();
    }

    private static double megabytes(double opsPerSecond, int batchBytes) {
        return opsPerSecond * batchBytes / 1e6;
    }

    private static String percent(double ratio) {
        return String.format(Locale.ROOT, "%.0f%%", ratio * 100);
    }
}
