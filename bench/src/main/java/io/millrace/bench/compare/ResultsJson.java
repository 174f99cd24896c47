package io.millrace.bench.compare;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * {@code results.json}: every figure of a {@link BrokerComparison} run by cell and run, with its
 * min / median / max and ratios, plus what the run was (scale, runs, heap, clients, machine). The
 * HTML report is rendered from this file alone, so a saved run can be rendered again. A value that
 * could not be measured is {@code null}.
 */
final class ResultsJson {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ResultsJson() {
    }

    static void write(BrokerComparison bench, Path file) throws IOException {
        JSON.writeValue(file.toFile(), tree(bench));
    }

    static ObjectNode tree(BrokerComparison bench) {
        ObjectNode root = JSON.createObjectNode();
        root.put("date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        root.put("scale", bench.scale);
        root.put("runs", bench.runs);
        root.put("heap", bench.heap);
        root.put("clients", version() + "; Apache Kafka Java clients "
            + org.apache.kafka.common.utils.AppInfoParser.getVersion());
        ObjectNode machine = root.putObject("machine");
        machine.put("processors", Runtime.getRuntime().availableProcessors());
        machine.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        machine.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        ArrayNode cells = root.putArray("cells");
        for (Cell c : Cell.values()) {
            cells.addObject().put("id", c.id()).put("client", c.clientName()).put("broker", c.broker).put("label", c.label());
        }
        ArrayNode ratios = root.putArray("ratios");
        for (Ratio r : Ratio.values()) {
            ratios.addObject().put("id", r.id).put("label", r.label)
                .put("numerator", r.numerator.id()).put("denominator", r.denominator.id());
        }
        ArrayNode figures = root.putArray("figures");
        for (Figure f : bench.inScenarioOrder()) {
            figures.add(figure(f));
        }
        ArrayNode ceilings = root.putArray("ceilings");
        for (MachineCeilings.Ceiling c : bench.ceilings) {
            ceilings.addObject().put("name", c.name()).put("bytes_per_second", c.bytesPerSecond())
                .put("messages_per_second", c.messagesPerSecond());
        }
        ArrayNode timelines = root.putArray("timelines");
        for (BrokerComparison.Timeline t : bench.timelines) {
            ObjectNode node = timelines.addObject();
            node.put("scenario", t.scenario()).put("cell", t.cell().id()).put("run", t.run())
                .put("interval_ms", t.timeline().intervalMillis());
            ArrayNode rates = node.putArray("records_per_second");
            for (double v : t.timeline().recordsPerSecond()) {
                rates.add(Math.round(v));
            }
        }
        return root;
    }

    private static ObjectNode figure(Figure f) {
        ObjectNode node = JSON.createObjectNode();
        node.put("scenario", f.scenario);
        node.put("metric", f.metric);
        node.put("better", f.higherIsBetter ? "higher" : "lower");
        ObjectNode values = node.putObject("values");
        f.values.forEach((cell, v) -> values.set(cell.id(), series(v)));
        ObjectNode ratios = node.putObject("ratios");
        for (Ratio r : Ratio.values()) {
            List<Double> v = f.ratios(r);
            if (!v.isEmpty()) {
                ratios.set(r.id, series(v));
            }
        }
        return node;
    }

    static ObjectNode series(List<Double> values) {
        ObjectNode node = JSON.createObjectNode();
        ArrayNode runs = node.putArray("runs");
        values.forEach(v -> {
            if (Double.isFinite(v)) {
                runs.add(v);
            } else {
                runs.addNull();
            }
        });
        double[] s = Figure.minMedianMax(values.stream().filter(Double::isFinite).toList());
        number(node, "min", s[0]);
        number(node, "median", s[1]);
        number(node, "max", s[2]);
        return node;
    }

    static void number(ObjectNode node, String field, double value) {
        if (Double.isFinite(value)) {
            node.put(field, value);
        } else {
            node.putNull(field);
        }
    }

    private static String version() {
        String v = ResultsJson.class.getPackage().getImplementationVersion();
        return v != null ? "Millrace " + v : "Millrace (this build)";
    }
}
