package io.millrace.bench.compare.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The comparison's {@code results.json}, read leniently: whatever is missing, null or of the wrong
 * type becomes absent (null, or an empty list or map) so that the page leaves out what it cannot
 * show rather than failing on a partial file.
 */
record BenchResults(String date, Double scale, Integer runs, String heap, String clients, Machine machine,
                    List<Cell> cells, List<Ratio> ratios, List<Figure> figures, List<Ceiling> ceilings,
                    List<Timeline> timelines) {

    record Machine(Integer processors, String os, String java) {
    }

    record Cell(String id, String client, String broker, String label) {
    }

    record Ratio(String id, String label, String numerator, String denominator) {
    }

    /** Min / median / max over the runs; each null when not known. */
    record Stats(List<Double> runs, Double min, Double median, Double max) {

        boolean isEmpty() {
            return min == null && median == null && max == null;
        }
    }

    record Figure(String scenario, String metric, String better, Map<String, Stats> values, Map<String, Stats> ratios) {

        boolean isThroughput() {
            return "records/s".equals(metric) || "MB/s".equals(metric);
        }

        boolean higherIsBetter() {
            return !"lower".equalsIgnoreCase(better);
        }

        /** The percentile of a latency metric such as "p99.9 ms", or null if it is not one. */
        Double percentile() {
            Matcher m = metric == null ? null : PERCENTILE.matcher(metric);
            return m != null && m.matches() ? Double.valueOf(m.group(1)) : null;
        }
    }

    record Ceiling(String name, Double bytesPerSecond, Double messagesPerSecond) {
    }

    record Timeline(String scenario, String cell, Integer run, Double intervalMs, List<Double> recordsPerSecond) {
    }

    private static final Pattern PERCENTILE = Pattern.compile("p(\\d+(?:\\.\\d+)?) ms");

    static BenchResults from(JsonNode root) {
        return new BenchResults(text(root, "date"), number(root.get("scale")), integer(root.get("runs")),
            text(root, "heap"), text(root, "clients"), machine(root.get("machine")),
            list(root.get("cells"), BenchResults::cell), list(root.get("ratios"), BenchResults::ratio),
            list(root.get("figures"), BenchResults::figure), list(root.get("ceilings"), BenchResults::ceiling),
            list(root.get("timelines"), BenchResults::timeline));
    }

    /**
     * The cells in display order: those declared, then any only named in figures or timelines
     * (labelled by their id), so that no measured value goes unshown for want of a declaration.
     */
    List<Cell> allCells() {
        Map<String, Cell> byId = new LinkedHashMap<>();
        for (Cell c : cells) {
            byId.putIfAbsent(c.id(), c);
        }
        for (Figure f : figures) {
            f.values().keySet().forEach(id -> byId.putIfAbsent(id, new Cell(id, null, null, id)));
        }
        for (Timeline t : timelines) {
            byId.putIfAbsent(t.cell(), new Cell(t.cell(), null, null, t.cell()));
        }
        return new ArrayList<>(byId.values());
    }

    /** The ratios in display order: those declared, then any only named in figures. */
    List<Ratio> allRatios() {
        Map<String, Ratio> byId = new LinkedHashMap<>();
        for (Ratio r : ratios) {
            byId.putIfAbsent(r.id(), r);
        }
        for (Figure f : figures) {
            f.ratios().keySet().forEach(id -> byId.putIfAbsent(id, new Ratio(id, id, null, null)));
        }
        return new ArrayList<>(byId.values());
    }

    // -- lenient readers: a node of the wrong shape reads as absent

    private static Machine machine(JsonNode n) {
        if (n == null || !n.isObject()) {
            return null;
        }
        return new Machine(integer(n.get("processors")), text(n, "os"), text(n, "java"));
    }

    private static Cell cell(JsonNode n) {
        String id = text(n, "id");
        if (id == null) {
            return null;
        }
        String label = text(n, "label");
        return new Cell(id, text(n, "client"), text(n, "broker"), label != null ? label : id);
    }

    private static Ratio ratio(JsonNode n) {
        String id = text(n, "id");
        if (id == null) {
            return null;
        }
        String label = text(n, "label");
        return new Ratio(id, label != null ? label : id, text(n, "numerator"), text(n, "denominator"));
    }

    private static Figure figure(JsonNode n) {
        String scenario = text(n, "scenario");
        String metric = text(n, "metric");
        if (scenario == null && metric == null) {
            return null;
        }
        return new Figure(scenario != null ? scenario : "", metric != null ? metric : "", text(n, "better"),
            statsById(n.get("values")), statsById(n.get("ratios")));
    }

    private static Map<String, Stats> statsById(JsonNode n) {
        Map<String, Stats> byId = new LinkedHashMap<>();
        if (n != null && n.isObject()) {
            n.fields().forEachRemaining(e -> {
                Stats s = stats(e.getValue());
                if (s != null) {
                    byId.put(e.getKey(), s);
                }
            });
        }
        return byId;
    }

    /**
     * Min, median and max as given, a null one meaning "n/a"; where one is left out altogether, it
     * is computed from the runs that have a value.
     */
    private static Stats stats(JsonNode n) {
        if (n == null || !n.isObject()) {
            return null;
        }
        List<Double> runs = numbers(n.get("runs"));
        List<Double> known = runs.stream().filter(v -> v != null).sorted().toList();
        boolean computable = !known.isEmpty();
        Double min = n.has("min") || !computable ? number(n.get("min")) : known.get(0);
        Double median = n.has("median") || !computable ? number(n.get("median")) : median(known);
        Double max = n.has("max") || !computable ? number(n.get("max")) : known.get(known.size() - 1);
        return new Stats(runs, min, median, max);
    }

    private static Double median(List<Double> sorted) {
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static Ceiling ceiling(JsonNode n) {
        String name = text(n, "name");
        return name == null ? null
            : new Ceiling(name, number(n.get("bytes_per_second")), number(n.get("messages_per_second")));
    }

    private static Timeline timeline(JsonNode n) {
        String scenario = text(n, "scenario");
        String cell = text(n, "cell");
        List<Double> rates = numbers(n.get("records_per_second"));
        if (scenario == null || cell == null || rates.isEmpty()) {
            return null;
        }
        return new Timeline(scenario, cell, integer(n.get("run")), number(n.get("interval_ms")), rates);
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n == null ? null : n.get(field);
        return v == null || v.isNull() || v.isContainerNode() ? null : v.asText();
    }

    /** A finite number, or null: NaN and infinities are "n/a" too. */
    private static Double number(JsonNode v) {
        if (v == null || !v.isNumber()) {
            return null;
        }
        double d = v.doubleValue();
        return Double.isFinite(d) ? d : null;
    }

    private static Integer integer(JsonNode v) {
        return v != null && v.isNumber() ? v.intValue() : null;
    }

    /** The array's numbers, null where an element is not one; empty if not an array. */
    private static List<Double> numbers(JsonNode n) {
        if (n == null || !n.isArray()) {
            return List.of();
        }
        List<Double> values = new ArrayList<>();
        n.forEach(v -> values.add(number(v)));
        return Collections.unmodifiableList(values);
    }

    private static <T> List<T> list(JsonNode n, java.util.function.Function<JsonNode, T> read) {
        if (n == null || !n.isArray()) {
            return List.of();
        }
        List<T> items = new ArrayList<>();
        for (JsonNode e : n) {
            T item = e.isObject() ? read.apply(e) : null;
            if (item != null) {
                items.add(item);
            }
        }
        return List.copyOf(items);
    }
}
