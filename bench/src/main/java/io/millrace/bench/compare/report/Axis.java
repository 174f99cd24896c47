package io.millrace.bench.compare.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A value axis: maps values onto a pixel range and chooses round tick values, on a linear scale
 * starting at zero (bars and rates) or a logarithmic one (latency percentiles spanning decades).
 */
final class Axis {

    private final boolean log;
    private final double lo;
    private final double hi;
    private final List<Double> ticks;

    private Axis(boolean log, double lo, double hi, List<Double> ticks) {
        this.log = log;
        this.lo = lo;
        this.hi = hi;
        this.ticks = ticks;
    }

    /** From zero to a round value at or above {@code max}, with about five ticks. */
    static Axis linear(double max) {
        double top = max > 0 && Double.isFinite(max) ? max : 1;
        double step = niceStep(top / 5);
        double end = Math.ceil(top / step - 1e-9) * step;
        List<Double> ticks = new ArrayList<>();
        for (int i = 0; i * step <= end + step * 1e-9; i++) {
            ticks.add(round(i * step));
        }
        return new Axis(false, 0, end, ticks);
    }

    /** Whole decades around the positive values from {@code min} to {@code max}. */
    static Axis logarithmic(double min, double max) {
        double positiveMin = min > 0 && Double.isFinite(min) ? min : 1;
        double positiveMax = max > 0 && Double.isFinite(max) ? Math.max(max, positiveMin) : positiveMin;
        int from = (int) Math.floor(Math.log10(positiveMin) + 1e-9);
        int to = (int) Math.ceil(Math.log10(positiveMax) - 1e-9);
        if (to <= from) {
            to = from + 1;
        }
        List<Double> ticks = new ArrayList<>();
        for (int e = from; e <= to; e++) {
            ticks.add(Math.pow(10, e));
        }
        return new Axis(true, Math.pow(10, from), Math.pow(10, to), ticks);
    }

    /** Without the binary noise of multiplying (0.6 rather than 0.6000000000000001). */
    private static double round(double v) {
        return new java.math.BigDecimal(v).round(new java.math.MathContext(12)).doubleValue();
    }

    /** 1, 2 or 5 times a power of ten, the smallest at or above {@code rough}. */
    static double niceStep(double rough) {
        double magnitude = Math.pow(10, Math.floor(Math.log10(rough)));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * magnitude >= rough * (1 - 1e-9)) {
                return m * magnitude;
            }
        }
        return 10 * magnitude;
    }

    boolean isLog() {
        return log;
    }

    List<Double> ticks() {
        return ticks;
    }

    double max() {
        return hi;
    }

    /** The value's position from 0 (axis start) to 1 (axis end), clamped. */
    double fraction(double value) {
        double f;
        if (log) {
            f = value <= 0 ? 0 : (Math.log10(value) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo));
        } else {
            f = (value - lo) / (hi - lo);
        }
        return Math.max(0, Math.min(1, f));
    }
}
