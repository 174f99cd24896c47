package io.millrace.bench.compare;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** One reported figure: its values per cell of the matrix, run by run. */
final class Figure {

    final String scenario;
    final String metric;
    /** Whether a higher value is the better one (throughput) or a lower one (latency, overhead). */
    final boolean higherIsBetter;
    final Map<Cell, List<Double>> values = new EnumMap<>(Cell.class);

    Figure(String scenario, String metric, boolean higherIsBetter) {
        this.scenario = scenario;
        this.metric = metric;
        this.higherIsBetter = higherIsBetter;
    }

    void add(Cell cell, double value) {
        values.computeIfAbsent(cell, c -> new ArrayList<>()).add(value);
    }

    List<Double> values(Cell cell) {
        return values.getOrDefault(cell, List.of());
    }

    /** The ratio per run pair; empty when either of its cells has no values. */
    List<Double> ratios(Ratio ratio) {
        List<Double> n = values(ratio.numerator);
        List<Double> d = values(ratio.denominator);
        List<Double> r = new ArrayList<>();
        for (int i = 0; i < Math.min(n.size(), d.size()); i++) {
            r.add(n.get(i) / d.get(i));
        }
        return r;
    }

    /** Whether every cell that reported this figure has a finite value for each of {@code runs} runs. */
    boolean complete(int runs) {
        return values.values().stream().allMatch(v -> v.size() == runs && v.stream().allMatch(Double::isFinite));
    }

    static double[] minMedianMax(List<Double> values) {
        return RunStatistics.minMedianMax(values);
    }

    double median(Cell cell) {
        return minMedianMax(values(cell))[1];
    }
}
