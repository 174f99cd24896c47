package io.millrace.bench.curves;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.millrace.bench.curves.CurveResults.Curve;
import io.millrace.bench.curves.CurveResults.Metric;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.Test;

/** The figures of a run as results.md, results.json and report.html give them, from made-up values. */
public class CurveWritingTest {

    private static final Curve PARTITIONS = new Curve("partitions", "a) Partitions", "partitions", List.of("1", "10", "100"));
    private static final Curve RESTART = new Curve("restart", "d) Restart", "data on disk", List.of("20 MB", "200 MB"));
    private static final Metric RATE = new Metric("produce throughput", "records/s", true);
    private static final Metric RSS = new Metric("resident memory", "MB", false);
    private static final Metric TIME = new Metric("restart", "ms", false);

    private static CurveResults sample() {
        CurveResults r = new CurveResults();
        r.curve(PARTITIONS);
        r.curve(RESTART);
        double[][] rates = {{100, 120, 110}, {90, 100, 95}, {20, 30, 25}};
        for (int s = 0; s < 3; s++) {
            for (double v : rates[s]) {
                r.add(PARTITIONS, RATE, PARTITIONS.steps().get(s), CurveResults.MILLRACE, v);
                r.add(PARTITIONS, RATE, PARTITIONS.steps().get(s), CurveResults.KAFKA, v * 2);
                r.add(PARTITIONS, RSS, PARTITIONS.steps().get(s), CurveResults.MILLRACE, 200 + s);
                r.add(PARTITIONS, RSS, PARTITIONS.steps().get(s), CurveResults.KAFKA, 400 + s);
            }
        }
        for (String step : RESTART.steps()) {
            for (int run = 0; run < 3; run++) {
                r.add(RESTART, TIME, step, CurveResults.MILLRACE, 1000 + run);
                r.add(RESTART, TIME, step, CurveResults.KAFKA, Double.NaN);
            }
        }
        r.note("The restart curve was scaled down.");
        return r;
    }

    private static Map<String, String> facts() {
        Map<String, String> facts = new LinkedHashMap<>();
        facts.put("Runs", "3");
        facts.put("Load average", "1.2 to 3.4 <of 2 cores>");
        return facts;
    }

    @Test
    public void statsAreMinMedianMaxAndCurvesAreComparedWithTheirFirstStep() {
        CurveResults r = sample();
        assertEquals(List.of(100.0, 120.0, 110.0), r.values(PARTITIONS, RATE, "1", CurveResults.MILLRACE));
        assertEquals(110, r.stats(PARTITIONS, RATE, "1", CurveResults.MILLRACE)[1], 0);
        assertEquals(25.0 / 110, r.relativeToFirst(PARTITIONS, RATE, "100", CurveResults.MILLRACE), 1e-9);
        assertEquals(List.of(RATE, RSS), r.metrics(PARTITIONS));
    }

    @Test
    public void missingNamesEveryPointWithoutAFiniteValuePerRun() {
        CurveResults r = sample();
        assertEquals(List.of("restart 20 MB restart, ms (Kafka)", "restart 200 MB restart, ms (Kafka)"), r.missing(3));
        assertEquals("every point of every figure, both brokers", 16, r.missing(4).size());
        assertEquals(List.of("every figure"), new CurveResults().missing(1));
    }

    @Test
    public void markdownHasATablePerCurveAndFigureWithARowPerStep() {
        String md = CurveMarkdown.render(sample(), facts());
        assertTrue(md, md.contains("- Runs: 3\n"));
        assertTrue(md, md.contains("- Note: The restart curve was scaled down.\n"));
        assertTrue(md, md.contains("### a) Partitions: produce throughput, records/s"));
        assertTrue(md, md.contains("| 100 | 20.0 / **25.0** / 30.0 | 40.0 / **50.0** / 60.0 | 0.50 | 0.23 | 0.23 |"));
        assertTrue(md, md.contains("| 20 MB | 1,000 / **1,001** / 1,002 | n/a / **n/a** / n/a | n/a | 1.00 | n/a |"));
    }

    @Test
    public void jsonHoldsEveryRunsValueWithNullForWhatWasNotMeasured() throws Exception {
        JsonNode root = new ObjectMapper().readTree(CurveJson.render(sample(), facts()));
        assertEquals("3", root.path("run").path("Runs").asText());
        assertEquals(1, root.path("notes").size());
        JsonNode partitions = root.path("curves").get(0);
        assertEquals("partitions", partitions.path("id").asText());
        assertEquals(3, partitions.path("steps").size());
        JsonNode rate = partitions.path("figures").get(0);
        assertEquals("records/s", rate.path("unit").asText());
        assertTrue(rate.path("higher_is_better").asBoolean());
        JsonNode last = rate.path("points").get(2);
        assertEquals("100", last.path("step").asText());
        assertEquals(3, last.path("Millrace").path("runs").size());
        assertEquals(25, last.path("Millrace").path("median").asDouble(), 0);
        assertEquals(50, last.path("Kafka").path("median").asDouble(), 0);
        JsonNode kafkaRestart = root.path("curves").get(1).path("figures").get(0).path("points").get(0).path("Kafka");
        assertTrue(kafkaRestart.path("runs").get(0).isNull());
        assertTrue(kafkaRestart.path("median").isNull());
    }

    @Test
    public void theReportIsOneSelfContainedPageWithAChartPerCurveAndFigure() {
        String html = CurvePage.render(sample(), facts());
        assertTrue(html.startsWith("<!DOCTYPE html>"));
        assertTrue(html.trim().endsWith("</html>"));
        assertFalse("nothing fetched, no scripts", html.contains("http") || html.toLowerCase().contains("<script"));
        assertTrue("facts escaped", html.contains("1.2 to 3.4 &lt;of 2 cores&gt;"));
        assertEquals("three figures with values, the restart one with Millrace's line alone", 3, count(html, "<svg "));
        assertTrue(html.contains("Millrace broker") && html.contains("Kafka broker"));
        assertTrue(html.contains("<h2>a) Partitions</h2>") && html.contains("<h2>d) Restart</h2>"));
    }

    private static int count(String s, String what) {
        Matcher m = Pattern.compile(Pattern.quote(what)).matcher(s);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
