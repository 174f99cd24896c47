package io.millrace.audit.report;

import io.millrace.audit.report.Reconciliation.LostRow;
import io.millrace.audit.report.Reconciliation.Row;
import io.millrace.audit.report.Reconciliation.Status;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The report as one self-contained HTML page: a summary, the completeness heat map ({@link HeatMap}), the
 * incomplete windows with the producers they are held against, the lost ranges, and a chart per topic of
 * the counts per tier over time ({@link CountChart}). Styles and charts are inline; the page loads nothing
 * and runs no script. It is well-formed XML as well as HTML, so that it can be checked with any XML parser;
 * the numbers are in {@code data-*} attributes as well as in the text.
 */
public final class HtmlReport {

    private static final String STYLE = String.join("\n",
        "body{font-family:sans-serif;font-size:14px;color:#222;margin:24px;}",
        "h1{font-size:22px;}h2{font-size:18px;margin-top:32px;}h3{font-size:15px;margin:16px 0 4px;}",
        ".status-COMPLETE{color:#1a7f37;font-weight:bold;}.status-INCOMPLETE{color:#c62828;font-weight:bold;}",
        "table{border-collapse:collapse;}th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;}",
        "th{background:#f4f4f4;}td.number{text-align:right;font-variant-numeric:tabular-nums;}",
        ".scroll{overflow-x:auto;}",
        "ul.legend{list-style:none;padding:0;}ul.legend li{display:inline-block;margin-right:16px;}",
        ".swatch{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:middle;"
            + "border:1px solid #aaa;}",
        "figure{margin:16px 0;}figcaption{font-weight:bold;margin-bottom:4px;}");

    private final AuditReport report;
    private final long generatedAt;
    private final Markup page;

    private HtmlReport(AuditReport report, long generatedAt) {
        this.report = report;
        this.generatedAt = generatedAt;
        this.page = new Markup(64 * 1024 + report.rows().size() * 320);
    }

    /** The page of {@code report}, made at {@code generatedAtMs} (the time the report judged the windows by). */
    public static String render(AuditReport report, long generatedAtMs) {
        return new HtmlReport(report, generatedAtMs).render();
    }

    private String render() {
        page.raw("<!DOCTYPE html>\n").open("html", "lang", "en").open("head").empty("meta", "charset", "utf-8")
            .element("title", "Millrace audit report, " + Markup.minute(generatedAt) + " UTC")
            .element("style", STYLE).close("head").open("body");
        summary();
        heatMap();
        incomplete();
        lost();
        charts();
        return page.close("body").close("html").raw("\n").toString();
    }

    private void summary() {
        String status = report.exitStatus() == AuditReport.COMPLETE ? "COMPLETE" : "INCOMPLETE";
        page.element("h1", "Audit report").open("p").text("Judged at " + Markup.minute(generatedAt) + " UTC. Status: ")
            .element("span", status, "class", "status-" + status, "id", "status").text(".").close("p");
        Map<Status, Long> byStatus = new TreeMap<>();
        report.rows().forEach(r -> byStatus.merge(r.status(), 1L, Long::sum));
        page.element("p", "Windows of a topic at a tier: " + Markup.count(report.rows().size()) + ", of which "
            + Markup.count(byStatus.getOrDefault(Status.COMPLETE, 0L)) + " complete, "
            + Markup.count(byStatus.getOrDefault(Status.INCOMPLETE, 0L)) + " incomplete, "
            + Markup.count(byStatus.getOrDefault(Status.OVER, 0L)) + " more than produced, "
            + Markup.count(byStatus.getOrDefault(Status.PENDING, 0L)) + " pending. Lost ranges: "
            + Markup.count(report.lost().size()) + ". Duplicate audit records ignored: "
            + Markup.count(report.duplicateRecords()) + ".");
    }

    private void heatMap() {
        page.element("h2", "Completeness per window");
        if (report.rows().isEmpty()) {
            page.element("p", "No window with traffic.");
            return;
        }
        page.open("ul", "class", "legend");
        for (String[] entry : HeatMap.legend()) {
            page.open("li").element("span", "", "class", "swatch", "style", "background:" + entry[1]).text(entry[0])
                .close("li");
        }
        page.close("ul");
        HeatMap.render(report.rows(), page);
    }

    private void incomplete() {
        page.element("h2", "Incomplete windows");
        List<Row> bad = report.rows().stream()
            .filter(r -> r.status() == Status.INCOMPLETE || r.status() == Status.OVER).toList();
        if (bad.isEmpty()) {
            page.element("p", "None: every window past the grace period is complete at every tier.");
            return;
        }
        page.open("table", "id", "incomplete");
        header("topic", "window (UTC)", "tier", "cluster", "produced", "counted", "missing", "status",
            "producers (host: count)");
        for (Row row : bad) {
            incompleteRow(row);
        }
        page.close("table");
    }

    private void incompleteRow(Row row) {
        page.open("tr", "class", "incomplete-row");
        cell("topic", row.topic());
        page.open("td", "class", "window").element("time", Markup.minute(row.windowStart()), "datetime",
            Markup.iso(row.windowStart())).close("td");
        cell("tier", row.tier());
        cell("cluster", row.cluster());
        number("produced", row.expected());
        number("counted", row.counted());
        number("missing", row.missing());
        cell("status", row.status().name());
        page.open("td", "class", "producers");
        int i = 0;
        for (Map.Entry<String, Long> host : row.producers().entrySet()) {
            page.text(i++ == 0 ? "" : ", ").element("span", host.getKey() + ": " + Markup.count(host.getValue()),
                "class", "producer", "data-host", host.getKey(), "data-count", Long.toString(host.getValue()));
        }
        page.close("td").close("tr");
    }

    private void lost() {
        page.element("h2", "Lost ranges");
        if (report.lost().isEmpty()) {
            page.element("p", "None.");
            return;
        }
        page.open("table", "id", "lost");
        header("tier", "cluster", "topic", "partition", "first offset", "last offset", "records");
        for (LostRow range : report.lost()) {
            page.open("tr", "class", "lost-row");
            cell("tier", range.tier());
            cell("cluster", range.cluster());
            cell("topic", range.topic());
            number("partition", range.partition());
            number("first", range.first());
            number("last", range.last());
            number("count", range.count());
            page.close("tr");
        }
        page.close("table");
    }

    private void header(String... names) {
        page.open("tr");
        for (String name : names) {
            page.element("th", name);
        }
        page.close("tr");
    }

    private void cell(String name, String text) {
        page.element("td", text, "class", name);
    }

    private void number(String name, long value) {
        page.element("td", Markup.count(value), "class", "number " + name);
    }

    private void charts() {
        page.element("h2", "Counts per tier");
        List<Long> windows = windows();
        Map<String, Map<String, long[]>> series = series(windows);
        if (series.isEmpty()) {
            page.element("p", "No counts.");
            return;
        }
        series.forEach((topic, lines) -> {
            List<CountChart.Series> list = new ArrayList<>();
            lines.forEach((name, counts) -> list.add(new CountChart.Series(name, counts)));
            page.open("figure", "class", "topic-chart", "data-topic", topic).element("figcaption", topic);
            CountChart.render(page, "Events per window of " + topic + " at each tier", windows, list);
            page.close("figure");
        });
    }

    /** Every window start of the report, ascending: the charts' common time axis. */
    private List<Long> windows() {
        TreeSet<Long> starts = new TreeSet<>();
        report.rows().forEach(r -> starts.add(r.windowStart()));
        report.producerHosts().values().forEach(w -> starts.addAll(w.keySet()));
        return new ArrayList<>(starts);
    }

    /** Topic -> line name -> count per window: the producers' (all hosts) first, then each downstream tier's. */
    private Map<String, Map<String, long[]>> series(List<Long> windows) {
        Map<String, Map<String, long[]>> series = new TreeMap<>();
        report.producerHosts().forEach((topic, byWindow) -> byWindow.forEach((start, hosts) -> {
            long[] counts = line(series, topic, Reconciliation.PRODUCER_TIER, windows.size());
            counts[Collections.binarySearch(windows, start)] += hosts.values().stream().mapToLong(Long::longValue).sum();
        }));
        for (Row row : report.rows()) {
            line(series, row.topic(), Reconciliation.PRODUCER_TIER, windows.size());
            line(series, row.topic(), HeatMap.group(row), windows.size())[Collections.binarySearch(windows, row.windowStart())] = row.counted();
        }
        return series;
    }

    private static long[] line(Map<String, Map<String, long[]>> series, String topic, String name, int windows) {
        return series.computeIfAbsent(topic, t -> new LinkedHashMap<>()).computeIfAbsent(name, n -> new long[windows]);
    }
}
