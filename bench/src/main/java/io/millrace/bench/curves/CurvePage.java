package io.millrace.bench.curves;

import static io.millrace.bench.compare.report.SvgCurveChart.escape;

import io.millrace.bench.compare.RunStatistics;
import io.millrace.bench.compare.report.SvgCurveChart;
import io.millrace.bench.curves.CurveResults.Curve;
import io.millrace.bench.curves.CurveResults.Metric;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code report.html}: one self-contained page (inline styles and SVG, no scripts, nothing fetched)
 * with the run's particulars and, per curve, one line chart per figure, Millrace beside Kafka, and
 * the table of {@code results.md} under it.
 */
final class CurvePage {

    private static final String STYLE = """
        body{font-family:sans-serif;margin:2em auto;max-width:1200px;padding:0 1em;color:#222}
        h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ccc;padding-bottom:.2em}
        dl.facts{display:grid;grid-template-columns:max-content auto;gap:.2em 1em}
        dl.facts dt{font-weight:bold}dl.facts dd{margin:0}
        table{border-collapse:collapse;font-size:.85em;margin:.5em 0 1em}
        th,td{border:1px solid #ddd;padding:.25em .5em}th{background:#f4f4f4;text-align:left}
        td.num{text-align:right;white-space:nowrap}
        .note{font-size:.9em;color:#555}
        .charts{display:flex;flex-wrap:wrap;gap:1.5em}
        figure{margin:0;flex:0 1 560px}figcaption{font-weight:bold;margin-bottom:.3em}
        svg.chart{width:100%;height:auto;display:block}
        """;

    private CurvePage() {
    }

    static String render(CurveResults results, Map<String, String> facts) {
        StringBuilder b = new StringBuilder(64 * 1024);
        b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
            .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
            .append("<title>Millrace and Apache Kafka: cost curves</title>\n<style>\n").append(STYLE)
            .append("</style>\n</head>\n<body>\n<h1>Millrace and Apache Kafka: cost curves</h1>\n<dl class=\"facts\">\n");
        facts.forEach((k, v) -> b.append("<dt>").append(escape(k)).append("</dt><dd>").append(escape(v)).append("</dd>\n"));
        b.append("</dl>\n");
        for (String note : results.notes()) {
            b.append("<p class=\"note\">").append(escape(note)).append("</p>\n");
        }
        b.append("<p class=\"note\">Each point is the median of the runs, its whisker the min to the max. The steps are "
            + "evenly spaced, so a decade per step is a logarithmic load axis.</p>\n");
        for (Curve c : results.curves()) {
            curve(b, results, c);
        }
        return b.append("</body>\n</html>\n").toString();
    }

    private static void curve(StringBuilder b, CurveResults results, Curve c) {
        b.append("<h2>").append(escape(c.title())).append("</h2>\n<div class=\"charts\">\n");
        for (Metric m : results.metrics(c)) {
            String svg = chart(results, c, m).render();
            if (!svg.isEmpty()) {
                b.append("<figure><figcaption>").append(escape(m.label())).append("</figcaption>\n").append(svg)
                    .append('\n').append(table(results, c, m)).append("</figure>\n");
            }
        }
        b.append("</div>\n");
    }

    static SvgCurveChart chart(CurveResults results, Curve c, Metric m) {
        SvgCurveChart chart = new SvgCurveChart(c.title() + ": " + m.label(), c.load(), m.unit(), c.steps());
        for (String side : CurveResults.SIDES) {
            List<SvgCurveChart.Point> points = new ArrayList<>();
            for (String step : c.steps()) {
                double[] s = results.stats(c, m, step, side);
                points.add(Double.isFinite(s[1]) ? new SvgCurveChart.Point(s[1], s[0], s[2]) : SvgCurveChart.Point.NONE);
            }
            chart.series(side + " broker", SvgCurveChart.colourOf(side.toLowerCase(java.util.Locale.ROOT)), points);
        }
        return chart;
    }

    private static String table(CurveResults results, Curve c, Metric m) {
        StringBuilder b = new StringBuilder("<table><thead><tr><th>").append(escape(c.load()))
            .append("</th><th>Millrace</th><th>Kafka</th><th>Millrace/Kafka</th><th>Millrace ÷ first</th>"
                + "<th>Kafka ÷ first</th></tr></thead><tbody>\n");
        for (String step : c.steps()) {
            double[] mr = results.stats(c, m, step, CurveResults.MILLRACE);
            double[] kf = results.stats(c, m, step, CurveResults.KAFKA);
            b.append("<tr><td>").append(escape(step)).append("</td>");
            cell(b, CurveMarkdown.triple(mr).replace("**", ""));
            cell(b, CurveMarkdown.triple(kf).replace("**", ""));
            cell(b, RunStatistics.format(mr[1] / kf[1]));
            cell(b, RunStatistics.format(results.relativeToFirst(c, m, step, CurveResults.MILLRACE)));
            cell(b, RunStatistics.format(results.relativeToFirst(c, m, step, CurveResults.KAFKA)));
            b.append("</tr>\n");
        }
        return b.append("</tbody></table>\n").toString();
    }

    private static void cell(StringBuilder b, String text) {
        b.append("<td class=\"num\">").append(escape(text)).append("</td>");
    }
}
