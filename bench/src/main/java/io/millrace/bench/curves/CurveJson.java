package io.millrace.bench.curves;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.millrace.bench.curves.CurveResults.Curve;
import io.millrace.bench.curves.CurveResults.Metric;
import java.util.List;
import java.util.Map;

/**
 * {@code results.json}: the run's particulars and notes, and per curve its steps and, per figure and
 * step, every run's value and the min / median / max of each broker. A value that could not be
 * measured is {@code null}.
 */
final class CurveJson {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private CurveJson() {
    }

    static String render(CurveResults results, Map<String, String> facts) throws java.io.IOException {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode run = root.putObject("run");
        facts.forEach(run::put);
        ArrayNode notes = root.putArray("notes");
        results.notes().forEach(notes::add);
        ArrayNode curves = root.putArray("curves");
        for (Curve c : results.curves()) {
            ObjectNode curve = curves.addObject().put("id", c.id()).put("title", c.title()).put("load", c.load());
            c.steps().forEach(curve.putArray("steps")::add);
            ArrayNode figures = curve.putArray("figures");
            for (Metric m : results.metrics(c)) {
                figures.add(figure(results, c, m));
            }
        }
        return JSON.writeValueAsString(root) + "\n";
    }

    private static ObjectNode figure(CurveResults results, Curve c, Metric m) {
        ObjectNode figure = JSON.createObjectNode().put("name", m.name()).put("unit", m.unit())
            .put("higher_is_better", m.higherIsBetter());
        ArrayNode points = figure.putArray("points");
        for (String step : c.steps()) {
            ObjectNode point = points.addObject().put("step", step);
            for (String side : CurveResults.SIDES) {
                ObjectNode s = point.putObject(side);
                numbers(s.putArray("runs"), results.values(c, m, step, side));
                double[] stats = results.stats(c, m, step, side);
                number(s, "min", stats[0]);
                number(s, "median", stats[1]);
                number(s, "max", stats[2]);
            }
        }
        return figure;
    }

    private static void numbers(ArrayNode array, List<Double> values) {
        values.forEach(v -> {
            if (Double.isFinite(v)) {
                array.add(v);
            } else {
                array.addNull();
            }
        });
    }

    private static void number(ObjectNode node, String field, double v) {
        if (Double.isFinite(v)) {
            node.put(field, v);
        } else {
            node.putNull(field);
        }
    }
}
