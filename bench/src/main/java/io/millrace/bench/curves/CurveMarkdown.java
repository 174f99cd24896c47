package io.millrace.bench.curves;

import io.millrace.bench.compare.RunStatistics;
import io.millrace.bench.curves.CurveResults.Curve;
import io.millrace.bench.curves.CurveResults.Metric;
import java.util.Map;

/**
 * {@code results.md}: the run's particulars, then per curve and figure a table with a row per step:
 * min / **median** / max for either broker, the Millrace/Kafka ratio of the medians, and each broker's
 * median over its own at the first step, which is where a curve that bends earlier shows.
 */
final class CurveMarkdown {

    private CurveMarkdown() {
    }

    static String render(CurveResults results, Map<String, String> facts) {
        StringBuilder b = new StringBuilder("# Cost curves: Millrace and Apache Kafka\n\n");
        facts.forEach((k, v) -> b.append("- ").append(k).append(": ").append(v).append('\n'));
        results.notes().forEach(n -> b.append("- Note: ").append(n).append('\n'));
        b.append("\nmin / **median** / max of the runs; \"÷ first\" is the median over the same broker's median at the"
            + " curve's first step.\n");
        for (Curve c : results.curves()) {
            for (Metric m : results.metrics(c)) {
                table(b, results, c, m);
            }
        }
        return b.toString();
    }

    private static void table(StringBuilder b, CurveResults results, Curve c, Metric m) {
        b.append("\n### ").append(c.title()).append(": ").append(m.label()).append("\n\n");
        b.append("| ").append(c.load()).append(" | Millrace | Kafka | Millrace/Kafka | Millrace ÷ first | Kafka ÷ first |\n");
        b.append("| --- | --- | --- | --- | --- | --- |\n");
        for (String step : c.steps()) {
            double[] mr = results.stats(c, m, step, CurveResults.MILLRACE);
            double[] kf = results.stats(c, m, step, CurveResults.KAFKA);
            b.append("| ").append(step).append(" | ").append(triple(mr)).append(" | ").append(triple(kf)).append(" | ")
                .append(RunStatistics.format(mr[1] / kf[1])).append(" | ")
                .append(RunStatistics.format(results.relativeToFirst(c, m, step, CurveResults.MILLRACE))).append(" | ")
                .append(RunStatistics.format(results.relativeToFirst(c, m, step, CurveResults.KAFKA))).append(" |\n");
        }
    }

    static String triple(double[] s) {
        return RunStatistics.format(s[0]) + " / **" + RunStatistics.format(s[1]) + "** / " + RunStatistics.format(s[2]);
    }
}
