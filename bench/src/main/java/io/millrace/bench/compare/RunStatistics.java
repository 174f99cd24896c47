package io.millrace.bench.compare;

import java.util.List;
import java.util.Locale;

/** The summary every benchmark report gives of a figure's runs, and how it prints a value. */
public final class RunStatistics {

    private RunStatistics() {
    }

    /** The smallest, the median and the largest of {@code values}; NaN for all three when there are none. */
    public static double[] minMedianMax(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = sorted.length;
        if (n == 0) {
            return new double[] {Double.NaN, Double.NaN, Double.NaN};
        }
        double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        return new double[] {sorted[0], median, sorted[n - 1]};
    }

    /** A value for a table: thousands grouped from 1,000, one decimal from 10, two below; "n/a" when not finite. */
    public static String format(double v) {
        if (!Double.isFinite(v)) {
            return "n/a";
        }
        double a = Math.abs(v);
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        return String.format(Locale.ROOT, a >= 10 ? "%.1f" : "%.2f", v);
    }
}
