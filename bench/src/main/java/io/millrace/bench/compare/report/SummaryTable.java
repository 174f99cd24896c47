package io.millrace.bench.compare.report;

import io.millrace.bench.compare.report.BenchResults.Cell;
import io.millrace.bench.compare.report.BenchResults.Ceiling;
import io.millrace.bench.compare.report.BenchResults.Figure;
import io.millrace.bench.compare.report.BenchResults.Ratio;
import io.millrace.bench.compare.report.BenchResults.Stats;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The summary table, the same numbers as the comparison prints: per figure one row, per cell and
 * per ratio the median over the runs with their min–max beneath. The best median of a row is
 * marked; a records/s median is also given as a share of the page-cache write ceiling.
 */
final class SummaryTable {

    private final BenchResults results;
    private final List<Cell> cells;
    private final List<Ratio> ratios;
    private final Map<String, String> colours;
    private final Double pageCacheRecordsPerSecond;

    SummaryTable(BenchResults results, Map<String, String> colours) {
        this.results = results;
        this.cells = results.allCells();
        this.ratios = results.allRatios();
        this.colours = colours;
        this.pageCacheRecordsPerSecond = pageCacheWriteCeiling(results.ceilings());
    }

    /** The page-cache write ceiling in messages/s, or null when it was not measured. */
    static Double pageCacheWriteCeiling(List<Ceiling> ceilings) {
        for (Ceiling c : ceilings) {
            String name = c.name().toLowerCase(Locale.ROOT);
            if ((name.contains("page-cache") || name.contains("page cache")) && name.contains("write")
                && c.messagesPerSecond() != null && c.messagesPerSecond() > 0) {
                return c.messagesPerSecond();
            }
        }
        return null;
    }

    String render() {
        if (results.figures().isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder("<div class=\"scroll\"><table class=\"summary\">\n<thead><tr>"
            + "<th>Scenario</th><th>Metric</th>");
        for (Cell c : cells) {
            b.append("<th><span class=\"swatch\" style=\"background:").append(colours.get(c.id())).append("\"></span>")
                .append(Xml.escape(c.label())).append("</th>");
        }
        for (Ratio r : ratios) {
            b.append("<th class=\"ratio\" title=\"").append(Xml.escape(r.label())).append("\">")
                .append(Xml.escape(r.label())).append("</th>");
        }
        b.append("</tr></thead>\n<tbody>\n");
        for (Figure f : results.figures()) {
            row(b, f);
        }
        b.append("</tbody></table></div>\n");
        b.append("<p class=\"note\">Each entry: the median over the runs, beneath it min – max. "
            + "\u2191 higher is better, \u2193 lower is better; the best median of a row is in bold.");
        if (pageCacheRecordsPerSecond != null) {
            b.append(" For records/s, the share of the machine's page-cache write ceiling (")
                .append(Numbers.format(pageCacheRecordsPerSecond)).append(" messages/s) is given too.");
        }
        b.append(" A ratio is formed run by run: numerator cell / denominator cell.</p>\n");
        return b.toString();
    }

    private void row(StringBuilder b, Figure f) {
        String best = bestCell(f);
        b.append("<tr><td>").append(Xml.escape(f.scenario())).append("</td><td class=\"metric\">")
            .append(Xml.escape(f.metric())).append(' ').append(f.higherIsBetter() ? "\u2191" : "\u2193").append("</td>");
        for (Cell c : cells) {
            Stats s = f.values().get(c.id());
            b.append(c.id().equals(best) ? "<td class=\"num best\">" : "<td class=\"num\">");
            stats(b, s, false);
            if (s != null && s.median() != null && "records/s".equals(f.metric()) && pageCacheRecordsPerSecond != null) {
                b.append("<div class=\"pct\">").append(Numbers.percent(100 * s.median() / pageCacheRecordsPerSecond))
                    .append(" of page cache</div>");
            }
            b.append("</td>");
        }
        for (Ratio r : ratios) {
            b.append("<td class=\"num ratio\">");
            stats(b, f.ratios().get(r.id()), true);
            b.append("</td>");
        }
        b.append("</tr>\n");
    }

    private static void stats(StringBuilder b, Stats s, boolean ratio) {
        if (s == null || s.isEmpty()) {
            b.append("<span class=\"na\">").append(Numbers.NOT_AVAILABLE).append("</span>");
            return;
        }
        b.append("<div class=\"median\">").append(ratio ? Numbers.ratio(s.median()) : Numbers.format(s.median()))
            .append("</div><div class=\"range\">")
            .append(ratio ? Numbers.ratio(s.min()) : Numbers.format(s.min())).append(" – ")
            .append(ratio ? Numbers.ratio(s.max()) : Numbers.format(s.max())).append("</div>");
    }

    /** The cell with the best median, or null when fewer than two cells have one. */
    private String bestCell(Figure f) {
        String best = null;
        Double bestValue = null;
        int known = 0;
        for (Cell c : cells) {
            Stats s = f.values().get(c.id());
            if (s == null || s.median() == null) {
                continue;
            }
            known++;
            double v = s.median();
            if (bestValue == null || (f.higherIsBetter() ? v > bestValue : v < bestValue)) {
                best = c.id();
                bestValue = v;
            }
        }
        return known >= 2 ? best : null;
    }
}
