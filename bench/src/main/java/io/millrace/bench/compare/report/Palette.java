package io.millrace.bench.compare.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The colour of each cell, the same in every chart. The comparison's four cells get a colour
 * that says what they are (blue for the Millrace broker, orange for Kafka's; dark for the Millrace
 * client, light for Kafka's); any other cell takes the next colour-blind-safe hue left.
 */
final class Palette {

    private static final Map<String, String> BY_CLIENT_AND_BROKER = Map.of(
        "millrace/millrace", "#0072B2",
        "kafka/millrace", "#56B4E9",
        "millrace/kafka", "#D55E00",
        "kafka/kafka", "#E69F00");
    private static final String[] OTHERS = {"#009E73", "#CC79A7", "#7F7F7F", "#000000", "#F0E442"};

    private Palette() {
    }

    static Map<String, String> colours(List<BenchResults.Cell> cells) {
        Map<String, String> byId = new LinkedHashMap<>();
        List<String> used = new ArrayList<>();
        for (BenchResults.Cell c : cells) {
            String known = BY_CLIENT_AND_BROKER.get(c.client() + "/" + c.broker());
            if (known != null && !used.contains(known)) {
                byId.put(c.id(), known);
                used.add(known);
            }
        }
        int next = 0;
        for (BenchResults.Cell c : cells) {
            if (!byId.containsKey(c.id())) {
                byId.put(c.id(), OTHERS[next++ % OTHERS.length]);
            }
        }
        return byId;
    }

    /** The colour of the cell of Kafka's client on {@code broker} ("millrace" or "kafka"). */
    static String withKafkaClient(String broker) {
        String c = BY_CLIENT_AND_BROKER.get("kafka/" + broker);
        if (c == null) {
            throw new IllegalArgumentException("no broker " + broker);
        }
        return c;
    }

    /** For charts whose bars are not cells (the machine's ceilings). */
    static String neutral() {
        return "#4D4D4D";
    }
}
