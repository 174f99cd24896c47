package io.millrace.bench.compare.report;

import io.millrace.bench.compare.report.BenchResults.Cell;
import io.millrace.bench.compare.report.BenchResults.Ceiling;
import io.millrace.bench.compare.report.BenchResults.Figure;
import io.millrace.bench.compare.report.BenchResults.Timeline;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The report as one HTML document: the run's particulars, the summary table, then the charts.
 * Styles are inline and the charts are inline SVG, so the file can be mailed or archived alone.
 * A section without data is left out.
 */
final class ReportPage {

    /** What a timeline without an interval is taken to have: the recorder's default. */
    private static final double DEFAULT_INTERVAL_MS = 100;

    private static final String STYLE = """
        body{font-family:sans-serif;margin:2em auto;max-width:1200px;padding:0 1em;color:#222}
        h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ccc;padding-bottom:.2em}
        dl.facts{display:grid;grid-template-columns:max-content auto;gap:.2em 1em}
        dl.facts dt{font-weight:bold}dl.facts dd{margin:0}
        .scroll{overflow-x:auto}
        table{border-collapse:collapse;font-size:.9em}
        th,td{border:1px solid #ddd;padding:.3em .5em;vertical-align:top}
        th{background:#f4f4f4;text-align:left}
        td.num{text-align:right;white-space:nowrap}td.metric{white-space:nowrap}
        td.best .median{font-weight:bold}
        .range,.pct{font-size:.8em;color:#666}.na{color:#999}
        th.ratio,td.ratio{background:#fafafa}
        .swatch{display:inline-block;width:.8em;height:.8em;margin-right:.3em;vertical-align:baseline}
        .note{font-size:.85em;color:#555}
        .charts{display:flex;flex-wrap:wrap;gap:1.5em}
        figure{margin:0}figcaption{font-weight:bold;margin-bottom:.3em}
        svg.chart{width:100%;height:auto;display:block}
        """;

    private final BenchResults results;
    private final List<Cell> cells;
    private final Map<String, String> colours;
    private final List<String> flameGraphs;

    ReportPage(BenchResults results) {
        this(results, List.of());
    }

    /** {@code flameGraphs}: paths, relative to the report, of the flame graphs a {@code --jfr} run drew. */
    ReportPage(BenchResults results, List<String> flameGraphs) {
        this.results = results;
        this.flameGraphs = flameGraphs;
        this.cells = results.allCells();
        this.colours = Palette.colours(cells);
    }

    String render() {
        StringBuilder b = new StringBuilder(64 * 1024);
        b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
            .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
            .append("<title>Millrace broker comparison").append(results.date() != null ? ", " + Xml.escape(results.date()) : "")
            .append("</title>\n<style>\n").append(STYLE).append("</style>\n</head>\n<body>\n");
        b.append("<h1>Millrace and Apache Kafka: the paper's experiments</h1>\n");
        facts(b);
        section(b, "Summary", new SummaryTable(results, colours).render());
        section(b, "Throughput", charts(throughputCharts()));
        section(b, "Throughput over time", charts(timelineCharts()));
        section(b, "Latency percentiles", charts(latencyCharts()));
        section(b, "Machine ceilings", ceilings());
        section(b, "Flame graphs", flameGraphLinks());
        b.append("</body>\n</html>\n");
        return b.toString();
    }

    private void facts(StringBuilder b) {
        Map<String, String> facts = new LinkedHashMap<>();
        facts.put("Date", results.date());
        BenchResults.Machine m = results.machine();
        if (m != null) {
            facts.put("Machine", join(m.processors() != null ? m.processors() + " processors" : null, m.os(), m.java()));
        }
        facts.put("Scale", results.scale() != null ? Numbers.label(results.scale()) : null);
        facts.put("Runs", results.runs() != null ? results.runs().toString() : null);
        facts.put("Heap", results.heap());
        facts.put("Clients", results.clients());
        facts.values().removeIf(Objects::isNull);
        if (facts.isEmpty()) {
            return;
        }
        b.append("<dl class=\"facts\">\n");
        facts.forEach((k, v) -> b.append("<dt>").append(k).append("</dt><dd>").append(Xml.escape(v)).append("</dd>\n"));
        b.append("</dl>\n");
    }

    private static String join(String... parts) {
        List<String> present = new ArrayList<>();
        for (String p : parts) {
            if (p != null && !p.isBlank()) {
                present.add(p);
            }
        }
        return present.isEmpty() ? null : String.join(", ", present);
    }

    private String flameGraphLinks() {
        if (flameGraphs.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder("<p class=\"note\">Where each scenario's CPU time went, from the JFR "
            + "recordings of <code>--jfr</code>: one flame graph of the clients' JVM and one of the broker's per scenario and "
            + "cell.</p>\n<ul>\n");
        for (String path : flameGraphs) {
            b.append("<li><a href=\"").append(Xml.escape(path)).append("\">").append(Xml.escape(path)).append("</a></li>\n");
        }
        return b.append("</ul>\n").toString();
    }

    private static void section(StringBuilder b, String heading, String body) {
        if (!body.isEmpty()) {
            b.append("<h2>").append(Xml.escape(heading)).append("</h2>\n").append(body);
        }
    }

    /** Captioned charts side by side; the empty string when none has anything to show. */
    private static String charts(Map<String, String> svgByCaption) {
        StringBuilder b = new StringBuilder();
        svgByCaption.forEach((caption, svg) -> {
            if (!svg.isEmpty()) {
                b.append("<figure><figcaption>").append(Xml.escape(caption)).append("</figcaption>\n")
                    .append(svg).append("\n</figure>\n");
            }
        });
        return b.length() == 0 ? "" : "<div class=\"charts\">\n" + b + "</div>\n";
    }

    /** Per throughput figure, its cells' medians: one chart each, as the figures' scales differ by decades. */
    private Map<String, String> throughputCharts() {
        Map<String, String> charts = new LinkedHashMap<>();
        for (Figure f : results.figures()) {
            if (!f.isThroughput()) {
                continue;
            }
            SvgBarChart chart = new SvgBarChart(f.scenario() + ", " + f.metric(), f.metric());
            List<SvgBarChart.Bar> bars = new ArrayList<>();
            for (Cell c : cellsIn(List.of(f))) {
                chart.series(c.label(), colours.get(c.id()));
                bars.add(SvgBarChart.Bar.of(f.values().get(c.id())));
            }
            chart.group("median of the runs, whisker min to max", bars);
            charts.put(f.scenario() + " (" + f.metric() + ")", chart.render());
        }
        return charts;
    }

    /** Per scenario with timelines, one line per cell: the first timeline the results give for it. */
    private Map<String, String> timelineCharts() {
        Map<String, Map<String, Timeline>> byScenario = new LinkedHashMap<>();
        for (Timeline t : results.timelines()) {
            byScenario.computeIfAbsent(t.scenario(), s -> new LinkedHashMap<>()).putIfAbsent(t.cell(), t);
        }
        Map<String, String> charts = new LinkedHashMap<>();
        byScenario.forEach((scenario, byCell) -> {
            SvgLineChart chart = new SvgLineChart(scenario + ", records/s over time", "records/s");
            for (Cell c : cells) {
                Timeline t = byCell.get(c.id());
                if (t != null) {
                    double intervalMs = t.intervalMs() != null ? t.intervalMs() : DEFAULT_INTERVAL_MS;
                    String label = c.label() + (t.run() != null ? " (run " + t.run() + ")" : "");
                    chart.line(new SvgLineChart.Line(label, colours.get(c.id()), intervalMs / 1000, t.recordsPerSecond()));
                }
            }
            charts.put(scenario, chart.render());
        });
        return charts;
    }

    /** Per scenario with latency figures ("p50 ms", "p99 ms", ...), its percentiles per cell on a log scale. */
    private Map<String, String> latencyCharts() {
        Map<String, List<Figure>> byScenario = new LinkedHashMap<>();
        for (Figure f : results.figures()) {
            if (f.percentile() != null) {
                byScenario.computeIfAbsent(f.scenario(), s -> new ArrayList<>()).add(f);
            }
        }
        Map<String, String> charts = new LinkedHashMap<>();
        byScenario.forEach((scenario, figures) -> {
            figures.sort(Comparator.comparing(Figure::percentile));
            List<Cell> present = cellsIn(figures);
            SvgBarChart chart = new SvgBarChart(scenario + ", latency percentiles", "ms").logScale();
            present.forEach(c -> chart.series(c.label(), colours.get(c.id())));
            for (Figure f : figures) {
                chart.group(f.metric().replace(" ms", ""), present.stream()
                    .map(c -> SvgBarChart.Bar.of(f.values().get(c.id()))).toList());
            }
            charts.put(scenario + " (ms)", chart.render());
        });
        return charts;
    }

    private String ceilings() {
        List<Ceiling> ceilings = results.ceilings();
        if (ceilings.isEmpty()) {
            return "";
        }
        SvgBarChart chart = new SvgBarChart("Machine ceilings, messages/s", "messages/s")
            .series("messages/s", Palette.neutral());
        StringBuilder table = new StringBuilder("<table><thead><tr><th>Ceiling</th><th>messages/s</th><th>MB/s</th>"
            + "</tr></thead><tbody>\n");
        for (Ceiling c : ceilings) {
            chart.group(c.name(), List.of(new SvgBarChart.Bar(c.messagesPerSecond(), null, null)));
            table.append("<tr><td>").append(Xml.escape(c.name())).append("</td><td class=\"num\">")
                .append(Numbers.format(c.messagesPerSecond())).append("</td><td class=\"num\">")
                .append(Numbers.format(c.bytesPerSecond() != null ? c.bytesPerSecond() / 1e6 : null))
                .append("</td></tr>\n");
        }
        table.append("</tbody></table>\n");
        return charts(Map.of("What this machine can do at most, without a broker", chart.render())) + table;
    }

    /** The cells, in display order, that have a value in any of the figures. */
    private List<Cell> cellsIn(List<Figure> figures) {
        return cells.stream()
            .filter(c -> figures.stream().anyMatch(f -> f.values().containsKey(c.id())))
            .toList();
    }
}
