package io.millrace.bench.groups;

import io.millrace.bench.compare.RunStatistics;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The figures of the group comparison: each measured run's value per figure and broker ("side"), and
 * their min / median / max, the ratio of each run pair and the Markdown table. Not thread-safe: the
 * benchmark adds values from its main thread.
 */
final class GroupFigures {

    /** One reported figure; {@code higherIsBetter} for rates, not for times. */
    record Figure(String name, String unit, boolean higherIsBetter) {
    }

    /** The sides in the table's order: the first two are compared, the others are shown alongside. */
    private final List<String> sides;
    private final Map<Figure, Map<String, List<Double>>> values = new LinkedHashMap<>();

    GroupFigures(List<String> sides) {
        if (sides.size() < 2) {
            throw new IllegalArgumentException("two sides to compare, at least: " + sides);
        }
        this.sides = List.copyOf(sides);
    }

    void add(Figure figure, String side, double value) {
        if (!sides.contains(side)) {
            throw new IllegalArgumentException("no side " + side);
        }
        values.computeIfAbsent(figure, f -> new LinkedHashMap<>()).computeIfAbsent(side, s -> new ArrayList<>()).add(value);
    }

    List<Double> values(Figure figure, String side) {
        return values.getOrDefault(figure, Map.of()).getOrDefault(side, List.of());
    }

    /** The first side's value over the second's, run by run. */
    List<Double> ratios(Figure figure) {
        List<Double> a = values(figure, sides.get(0));
        List<Double> b = values(figure, sides.get(1));
        List<Double> r = new ArrayList<>();
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            r.add(a.get(i) / b.get(i));
        }
        return r;
    }

    /** Whether the first side's median is at least as good as the second's; null without both. */
    Boolean noWorse(Figure figure) {
        double a = RunStatistics.minMedianMax(values(figure, sides.get(0)))[1];
        double b = RunStatistics.minMedianMax(values(figure, sides.get(1)))[1];
        if (!Double.isFinite(a) || !Double.isFinite(b)) {
            return null;
        }
        return figure.higherIsBetter() ? a >= b : a <= b;
    }

    /** The figures of which some side measured has fewer than {@code runs} values, or one not finite. */
    List<String> missing(int runs) {
        List<String> missing = new ArrayList<>();
        values.forEach((figure, bySide) -> bySide.forEach((side, v) -> {
            if (v.size() != runs || v.stream().anyMatch(d -> !Double.isFinite(d))) {
                missing.add(figure.name() + " (" + side + ")");
            }
        }));
        if (values.isEmpty()) {
            missing.add("every figure");
        }
        return missing;
    }


    /** The table: min / **median** / max per side, the ratio of the first two sides and whether the first is no worse. */
    void table(PrintStream p) {
        StringBuilder head = new StringBuilder("| figure |");
        StringBuilder rule = new StringBuilder("| --- |");
        for (String side : sides) {
            head.append(' ').append(side).append(" |");
            rule.append(" --- |");
        }
        p.println(head.append(' ').append(sides.get(0)).append('/').append(sides.get(1)).append(" | no worse? |"));
        p.println(rule.append(" --- | --- |"));
        values.keySet().forEach(figure -> p.println(row(figure)));
    }

    private String row(Figure figure) {
        StringBuilder row = new StringBuilder("| ").append(figure.name()).append(", ").append(figure.unit()).append(" |");
        for (String side : sides) {
            List<Double> v = values(figure, side);
            row.append(' ').append(v.isEmpty() ? "–" : triple(v)).append(" |");
        }
        Boolean noWorse = noWorse(figure);
        return row.append(' ').append(triple(ratios(figure))).append(" | ")
            .append(noWorse == null ? "–" : noWorse ? "yes" : "no").append(" |").toString();
    }

    static String triple(List<Double> values) {
        double[] s = RunStatistics.minMedianMax(values);
        return RunStatistics.format(s[0]) + " / **" + RunStatistics.format(s[1]) + "** / " + RunStatistics.format(s[2]);
    }


    /** Every value as JSON: {"figure, unit": {"side": [v1, v2, ...]}}. */
    String json() {
        StringBuilder json = new StringBuilder("{\n");
        String figureSep = "";
        for (Map.Entry<Figure, Map<String, List<Double>>> f : values.entrySet()) {
            json.append(figureSep).append("  ").append(quoted(f.getKey().name() + ", " + f.getKey().unit())).append(": {");
            String sideSep = "";
            for (Map.Entry<String, List<Double>> s : f.getValue().entrySet()) {
                json.append(sideSep).append(quoted(s.getKey())).append(": ").append(numbers(s.getValue()));
                sideSep = ", ";
            }
            json.append('}');
            figureSep = ",\n";
        }
        return json.append("\n}\n").toString();
    }

    private static String numbers(List<Double> values) {
        List<String> out = new ArrayList<>();
        for (double v : values) {
            out.add(Double.isFinite(v) ? String.format(Locale.ROOT, "%.3f", v) : "null");
        }
        return "[" + String.join(", ", out) + "]";
    }

    private static String quoted(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
