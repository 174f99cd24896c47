package io.millrace.bench.curves;

import io.millrace.bench.compare.RunStatistics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
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
        return RunStatistics.minMedianMax(values(curve, metric, step, side));
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



    private static String key(Curve curve, Metric metric, String step, String side) {
        return curve.id() + '\u0000' + metric.label() + '\u0000' + step + '\u0000' + side;
    }
}
