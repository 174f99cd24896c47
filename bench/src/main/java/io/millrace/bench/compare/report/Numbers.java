package io.millrace.bench.compare.report;

import java.util.Locale;

/**
 * How the report writes numbers: with as many digits as a benchmark's noise justifies, and the
 * same way in the table and on the charts.
 */
final class Numbers {

    static final String NOT_AVAILABLE = "n/a";

    private Numbers() {
    }

    /** 1,234,567 / 123.4 / 12.3 / 1.23 / 0.0123; "n/a" for null. */
    static String format(Double v) {
        if (v == null) {
            return NOT_AVAILABLE;
        }
        double a = Math.abs(v);
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a >= 1 || a == 0) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.3g", v);
    }

    /** A ratio such as 1.23×. */
    static String ratio(Double v) {
        return v == null ? NOT_AVAILABLE : String.format(Locale.ROOT, "%.2f\u00d7", v);
    }

    static String percent(Double v) {
        if (v == null) {
            return NOT_AVAILABLE;
        }
        return String.format(Locale.ROOT, Math.abs(v) >= 10 ? "%.0f%%" : "%.1f%%", v);
    }

    /** A bar's label, three significant digits at most: 40.4k, 1.18M, 9.16. */
    static String label(double v) {
        double a = Math.abs(v);
        double scaled = a >= 1e9 ? v / 1e9 : a >= 1e6 ? v / 1e6 : a >= 1e3 ? v / 1e3 : v;
        String suffix = a >= 1e9 ? "G" : a >= 1e6 ? "M" : a >= 1e3 ? "k" : "";
        return new java.math.BigDecimal(scaled).round(new java.math.MathContext(3)).stripTrailingZeros()
            .toPlainString() + suffix;
    }

    /** Short tick labels: 1.5M, 200k, 12, 0.5. */
    static String compact(double v) {
        double a = Math.abs(v);
        if (a >= 1e9) {
            return trim(v / 1e9) + "G";
        }
        if (a >= 1e6) {
            return trim(v / 1e6) + "M";
        }
        if (a >= 1e3) {
            return trim(v / 1e3) + "k";
        }
        return trim(v);
    }

    private static String trim(double v) {
        String s = String.format(Locale.ROOT, "%.3f", v);
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }
}
