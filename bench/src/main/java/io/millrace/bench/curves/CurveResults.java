package io.millrace.bench.curves;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Every measured value of a curves run: per curve, per figure, per step of the load and per broker
 * ("side"), one value per run, with their min / median / max. Not thread-safe: the benchmark adds
 * values from its main thread.
 */
final class CurveResults {

    static final String MILLRACE = "Millrace";
    static final String KAFKA = "Kafka";
    static final List<String> SIDES = List.of(MILLRACE, KAFKA);

    /** A load that grows by {@code steps}, labelled as the chart's bottom axis says them. */
    record Curve(String id, String title, String load, List<String> steps) {
    }

    /** One figure measured at every step of a curve; {@code higherIsBetter} for rates, not for costs. */
    record Metric(String name, String unit, boolean higherIsBetter) {

        String label() {
            return name + ", " + unit;
        }
    }

    private final List<Curve> curves = new ArrayList<>();
    private final Map<Curve, List<Metric>> metrics = new LinkedHashMap<>();
    private final Map<String, List<Double>> values = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();

    /** Adds {@code curve} (once) in the order of the report. */
    Curve curve(Curve curve) {
        if (!curves.contains(curve)) {
            curves.add(curve);
            metrics.put(curve, new ArrayList<>());
        }
        return curve;
    }

    void add(Curve curve, Metric metric, String step, String side, double value) {
        if (!curves.contains(curve) || !curve.steps().contains(step) || !SIDES.contains(side)) {
            throw new IllegalArgumentException(curve.id() + " / " + step + " / " + side);
        }
        List<Metric> ms = metrics.get(curve);
        if (!ms.contains(metric)) {
            ms.add(metric);
        }
        values.computeIfAbsent(key(curve, metric, step, side), k -> new ArrayList<>()).add(value);
    }

    /** A remark for the report, e.g. why a size was scaled down. */
    void note(String note) {
        notes.add(note);
    }

    List<String> notes() {
        return List.copyOf(notes);
    }

    List<Curve> curves() {
        return List.copyOf(curves);
    }

    List<Metric> metrics(Curve curve) {
        return List.copyOf(metrics.getOrDefault(curve, List.of()));
    }

    List<Double> values(Curve curve, Metric metric, String step, String side) {
        return values.getOrDefault(key(curve, metric, step, side), List.of());
    }

    double[] stats(Curve curve, Metric metric, String step, String side) {
        return minMedianMax(values(curve, metric, step, side));
    }

    /**
     * The median at {@code step} over the median at the curve's first step: how the figure moved as
     * the load grew, so that two brokers' curves can be compared in shape whatever their heights.
     */
    double relativeToFirst(Curve curve, Metric metric, String step, String side) {
        return stats(curve, metric, step, side)[1] / stats(curve, metric, curve.steps().get(0), side)[1];
    }

    /** The points that some broker measured fewer than {@code runs} times, or measured as not a number. */
    List<String> missing(int runs) {
        List<String> missing = new ArrayList<>();
        for (Curve c : curves) {
            for (Metric m : metrics.get(c)) {
                for (String step : c.steps()) {
                    for (String side : SIDES) {
                        List<Double> v = values(c, m, step, side);
                        if (v.size() != runs || v.stream().anyMatch(d -> !Double.isFinite(d))) {
                            missing.add(c.id() + " " + step + " " + m.label() + " (" + side + ")");
                        }
                    }
                }
            }
        }
        if (values.isEmpty()) {
            missing.add("every figure");
        }
        return missing;
    }

    static double[] minMedianMax(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = sorted.length;
        if (n == 0) {
            return new double[] {Double.NaN, Double.NaN, Double.NaN};
        }
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

    private static String key(Curve curve, Metric metric, String step, String side) {
        return curve.id() + '\u0000' + metric.label() + '\u0000' + step + '\u0000' + side;
    }
}
