package io.millrace.audit.tools;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.millrace.audit.AuditPublisher;
import io.millrace.audit.AuditSource;
import io.millrace.audit.LostRangeReport;
import io.millrace.audit.WindowDelta;
import io.millrace.audit.report.ParsedPage;
import io.millrace.broker.tools.LocalCluster;
import io.millrace.schemaregistry.server.SchemaRegistryConfig;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.w3c.dom.Element;

/**
 * The HTML report is parsed and its numbers checked against the JSON: three topics, three windows past the
 * grace period and one inside it, two data centres of producers, the mirror's tiers and the loader, with a
 * window short at the offline cluster, one short at the loader, one counted twice at the mirror, and a lost
 * range, all read back from a real audit topic.
 */
public class AuditReportHtmlTest {

    private static final long W = 600_000;
    private static final long START = 1_800_000_000_000L - 1_800_000_000_000L % W;
    private static final long NOW = START + 10 * W;
    private static final List<String> TOPICS = List.of("clicks", "searches", "views");
    /** Host -> data centre of the producers. */
    private static final Map<String, String> PRODUCERS = new TreeMap<>(Map.of("fe-1", "dc1", "fe-2", "dc1", "fe-3", "dc2"));
    private static final Set<String> INCOMPLETE = Set.of("INCOMPLETE", "OVER");

    @Rule
    public final TemporaryFolder temp = new TemporaryFolder();

    private final Map<AuditSource, List<WindowDelta>> deltas = new HashMap<>();
    private JsonNode json;
    private ParsedPage page;
    private String html;

    @Test
    public void theHtmlReportIsParsedAndItsNumbersCheckedAgainstTheJson() throws Exception {
        runReport();
        assertTrue("the report has something of every kind to show", statuses().containsAll(
            List.of("COMPLETE", "INCOMPLETE", "OVER", "PENDING")) && json.get("lost").size() == 1);

        assertEquals("every heat-map cell, with its numbers", jsonCells(), htmlCells());
        assertEquals("every incomplete window", jsonIncomplete(), htmlIncomplete());
        assertEquals("every lost range", jsonLost(), htmlLost());
        assertEquals("INCOMPLETE", page.byId("status").getTextContent());
        checkColours();
        checkCharts();
        checkSelfContained();
    }

    private void runReport() throws Exception {
        fill();
        Path jsonFile = temp.getRoot().toPath().resolve("report.json");
        Path htmlFile = temp.getRoot().toPath().resolve("report.html");
        try (LocalCluster cluster = LocalCluster.start(1, Map.of());
             SchemaRegistryServer registry = new SchemaRegistryServer(new SchemaRegistryConfig(Map.of(
                 SchemaRegistryConfig.LISTENERS_CONFIG, "http://127.0.0.1:0",
                 SchemaRegistryConfig.ZOOKEEPER_CONNECT_CONFIG, cluster.zookeeperConnect()))).start()) {
            try (AuditPublisher publisher = new AuditPublisher(AuditReportMainTest.settings(cluster, registry))) {
                deltas.forEach(publisher::publish);
                publisher.lostRange(new AuditSource("live", "dc1", "mm-1", "mirror"),
                    new LostRangeReport("views", 2, 1_000, 1_009));
            }
            String[] args = {"--bootstrap-server", cluster.bootstrapServers(), "--schema-registry", registry.urls().get(0),
                "--grace", "10m", "--json", jsonFile.toString(), "--html", htmlFile.toString()};
            PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
            assertEquals(1, AuditReportMain.run(args, quiet, System.err, NOW));
        }
        json = new ObjectMapper().readTree(jsonFile.toFile());
        html = Files.readString(htmlFile);
        page = ParsedPage.parse(html);
    }

    /** The audit records: counts every tier made, with the defects the report must find. */
    private void fill() {
        for (int t = 0; t < TOPICS.size(); t++) {
            String topic = TOPICS.get(t);
            for (int w : new int[] {0, 1, 2}) {
                Map<String, Long> dc = new TreeMap<>();
                long all = 0;
                for (Map.Entry<String, String> producer : PRODUCERS.entrySet()) {
                    long count = 100 + 10L * t + 3L * w + 7L * producer.getKey().charAt(3);
                    add("producer", producer.getValue(), producer.getKey(), topic, w, count);
                    dc.merge(producer.getValue(), count, Long::sum);
                    all += count;
                }
                for (String d : dc.keySet()) {
                    add("live", d, "mm-1", topic, w, dc.get(d) + (topic.equals("searches") && w == 0 && d.equals("dc2") ? 2 : 0));
                    add("offline", d, "mm-1", topic, w, dc.get(d) - (topic.equals("views") && w == 1 && d.equals("dc1") ? 3 : 0));
                }
                long loaded = all - (topic.equals("clicks") && w == 2 ? 40 : 0);
                add("hadoop", "offline", "loader-1", topic, w, loaded / 2);   // the loader counts in two deltas
                add("hadoop", "offline", "loader-2", topic, w, loaded - loaded / 2);
            }
        }
        add("producer", "dc1", "fe-1", "views", 9, 50);   // inside the grace period
        add("live", "dc1", "mm-1", "views", 9, 20);
    }

    private void add(String tier, String cluster, String host, String topic, int window, long count) {
        long start = START + window * W;
        deltas.computeIfAbsent(new AuditSource(tier, cluster, host, "app-" + tier), s -> new ArrayList<>())
            .add(new WindowDelta(topic, start, start + W, count, count * 100, 0, 0, 0, 5, 9, 12));
    }

    private Set<String> statuses() {
        Set<String> statuses = new TreeSet<>();
        json.get("rows").forEach(r -> statuses.add(r.get("status").asText()));
        return statuses;
    }

    private static String key(String topic, long window, String tier, String cluster) {
        return topic + " " + Instant.ofEpochMilli(window) + " " + tier + "/" + cluster;
    }

    private Map<String, List<Object>> jsonCells() {
        Map<String, List<Object>> cells = new TreeMap<>();
        for (JsonNode r : json.get("rows")) {
            cells.put(key(r.get("topic").asText(), r.get("windowStart").asLong(), r.get("tier").asText(),
                r.get("cluster").asText()), List.of(r.get("produced").asLong(), r.get("counted").asLong(),
                r.get("missing").asLong(), r.get("status").asText()));
        }
        return cells;
    }

    private Map<String, List<Object>> htmlCells() {
        Map<String, List<Object>> cells = new TreeMap<>();
        for (Element cell : page.all("rect", "cell")) {
            Element row = ParsedPage.ancestor(cell, "g");
            List<Object> numbers = List.of(Long.parseLong(cell.getAttribute("data-expected")),
                Long.parseLong(cell.getAttribute("data-counted")), Long.parseLong(cell.getAttribute("data-missing")),
                cell.getAttribute("data-status"));
            String key = key(row.getAttribute("data-topic"), Long.parseLong(cell.getAttribute("data-window")),
                row.getAttribute("data-tier"), row.getAttribute("data-cluster"));
            assertEquals("one cell per topic, window and tier", null, cells.put(key, numbers));
            String tooltip = ParsedPage.one(cell, "title", null).getTextContent();
            assertTrue(tooltip, tooltip.contains(String.format("%,d of %,d", (Long) numbers.get(1), (Long) numbers.get(0))));
        }
        return cells;
    }

    private List<List<Object>> jsonIncomplete() {
        List<List<Object>> rows = new ArrayList<>();
        for (JsonNode r : json.get("rows")) {
            if (INCOMPLETE.contains(r.get("status").asText())) {
                Map<String, Long> hosts = new TreeMap<>();
                r.get("producerHosts").fields().forEachRemaining(h -> hosts.put(h.getKey(), h.getValue().asLong()));
                rows.add(List.of(r.get("topic").asText(), r.get("windowStart").asLong(), r.get("tier").asText(),
                    r.get("cluster").asText(), r.get("produced").asLong(), r.get("counted").asLong(),
                    r.get("missing").asLong(), r.get("status").asText(), hosts));
            }
        }
        return rows;
    }

    private List<List<Object>> htmlIncomplete() {
        List<List<Object>> rows = new ArrayList<>();
        for (Element tr : page.all("tr", "incomplete-row")) {
            Map<String, Long> hosts = new TreeMap<>();
            for (Element producer : ParsedPage.within(ParsedPage.one(tr, "td", "producers"), "span", "producer")) {
                long count = Long.parseLong(producer.getAttribute("data-count"));
                assertEquals(producer.getAttribute("data-host") + ": " + String.format("%,d", count),
                    producer.getTextContent());
                hosts.put(producer.getAttribute("data-host"), count);
            }
            long window = Instant.parse(ParsedPage.one(tr, "time", null).getAttribute("datetime")).toEpochMilli();
            rows.add(List.of(ParsedPage.cell(tr, "topic"), window, ParsedPage.cell(tr, "tier"), ParsedPage.cell(tr, "cluster"),
                ParsedPage.number(tr, "produced"), ParsedPage.number(tr, "counted"), ParsedPage.number(tr, "missing"),
                ParsedPage.cell(tr, "status"), hosts));
        }
        return rows;
    }

    private List<List<Object>> jsonLost() {
        List<List<Object>> lost = new ArrayList<>();
        for (JsonNode l : json.get("lost")) {
            lost.add(List.of(l.get("tier").asText(), l.get("cluster").asText(), l.get("topic").asText(),
                l.get("partition").asLong(), l.get("firstOffset").asLong(), l.get("lastOffset").asLong(), l.get("count").asLong()));
        }
        return lost;
    }

    private List<List<Object>> htmlLost() {
        List<List<Object>> lost = new ArrayList<>();
        for (Element tr : page.all("tr", "lost-row")) {
            lost.add(List.of(ParsedPage.cell(tr, "tier"), ParsedPage.cell(tr, "cluster"), ParsedPage.cell(tr, "topic"),
                ParsedPage.number(tr, "partition"), ParsedPage.number(tr, "first"), ParsedPage.number(tr, "last"),
                ParsedPage.number(tr, "count")));
        }
        return lost;
    }

    /** One colour for complete cells, another for pending ones, others again for short and over. */
    private void checkColours() {
        Map<String, Set<String>> fills = new TreeMap<>();
        for (Element cell : page.all("rect", "cell")) {
            fills.computeIfAbsent(cell.getAttribute("data-status"), s -> new TreeSet<>()).add(cell.getAttribute("fill"));
        }
        assertEquals(fills.toString(), 1, fills.get("COMPLETE").size());
        assertEquals(fills.toString(), 1, fills.get("PENDING").size());
        Set<String> others = new TreeSet<>();
        fills.forEach((status, colours) -> others.addAll(status.equals("PENDING") ? Set.of() : colours));
        assertFalse("pending cells stand out", others.contains(fills.get("PENDING").iterator().next()));
        assertFalse(fills.get("INCOMPLETE").contains(fills.get("COMPLETE").iterator().next()));
        assertNotEquals(fills.get("OVER"), fills.get("COMPLETE"));
    }

    /** A chart per topic, with a line per tier that counted it and the producers' line, every window a point. */
    private void checkCharts() {
        Map<String, Set<String>> expected = new TreeMap<>();
        Set<Long> windows = new TreeSet<>();
        for (JsonNode r : json.get("rows")) {
            expected.computeIfAbsent(r.get("topic").asText(), t -> new TreeSet<>(Set.of("producer")))
                .add(r.get("tier").asText() + " / " + r.get("cluster").asText());
            windows.add(r.get("windowStart").asLong());
        }
        Map<String, Set<String>> drawn = new TreeMap<>();
        for (Element figure : page.all("figure", "topic-chart")) {
            Set<String> lines = new TreeSet<>();
            for (Element line : ParsedPage.within(figure, "polyline", "series")) {
                lines.add(line.getAttribute("data-series"));
                assertEquals(windows.size(), line.getAttribute("points").split(" ").length);
            }
            drawn.put(figure.getAttribute("data-topic"), lines);
            String text = figure.getTextContent();
            assertTrue(text, text.contains("events per window") && text.contains("window start (UTC)"));
        }
        assertEquals(expected, drawn);
    }

    private void checkSelfContained() {
        String lower = html.toLowerCase();
        for (String banned : List.of("http://", "https://", "<script", "<link", "<img", "<iframe", "url(", "@import",
                "src=")) {
            assertFalse(banned, lower.contains(banned));
        }
    }
}
