package io.millrace.bench.compare.report;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class HtmlReportTest {

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    private static final List<String> CELL_LABELS = List.of(
        "Millrace client, Millrace broker", "Kafka client, Millrace broker",
        "Millrace client, Kafka broker", "Kafka client, Kafka broker");

    @Test
    public void rendersTheSampleAsOneSelfContainedPage() throws IOException {
        String html = render(sample());

        assertTrue(html.startsWith("<!DOCTYPE html>"));
        assertTrue(html.trim().endsWith("</html>"));
        assertFalse("nothing fetched", html.contains("src=\"http"));
        assertFalse("no scripts", html.toLowerCase().contains("<script"));
        assertFalse("no linked style sheets", html.toLowerCase().contains("<link"));
        assertFalse("no address of any kind", html.contains("http"));
        for (String label : CELL_LABELS) {
            assertTrue(label, html.contains(label));
        }
    }

    @Test
    public void drawsAChartPerThroughputFigureTimelineScenarioLatencyScenarioAndTheCeilings() throws IOException {
        String html = render(sample());
        // 8 records/s or MB/s figures, 2 scenarios with timelines, 1 with latency percentiles, the ceilings
        assertEquals(8 + 2 + 1 + 1, count(html, "<svg"));
        for (String caption : List.of("1. producer batch 1 (records/s)", "1. producer tuned (MB/s)",
                "5. scaling, 2 brokers (records/s)", "3. end-to-end at 10,000 msg/s (ms)")) {
            assertTrue(caption, html.contains("<figcaption>" + caption + "</figcaption>"));
        }
        assertTrue(html.contains("<h2>Throughput over time</h2>"));
        assertTrue(html.contains("<h2>Machine ceilings</h2>"));
        assertTrue("one line per cell of the run given", html.contains("Kafka client, Kafka broker (run 2)"));
        assertTrue("latency on a log scale", html.contains("ms (log scale)"));
        // the bytes/message figure is in the table only
        assertFalse(html.contains("<figcaption>4. storage"));
        assertTrue(html.contains("<td>4. storage</td>"));
    }

    @Test
    public void theTableShowsTheNumbersFormatted() throws IOException {
        String html = render(sample());
        assertTrue("a median with its thousands grouped", html.contains("<div class=\"median\">40,379</div>"));
        assertTrue("its range", html.contains("39,522 – 41,998"));
        assertTrue("a ratio", html.contains("1.44\u00d7"));
        assertTrue("a latency, best in its row as lower is better", html.contains("<td class=\"num best\"><div class=\"median\">1.29</div>"));
        assertTrue("a latency above ten", html.contains("<div class=\"median\">13.4</div>"));
        assertTrue("a share of the page-cache write ceiling", html.contains("% of page cache"));
        assertTrue("the machine", html.contains("2 processors, Linux 6.1, OpenJDK 64-Bit Server VM 17.0.13"));
        assertTrue("the clients", html.contains("Millrace 0.1.0-SNAPSHOT; Apache Kafka Java clients 4.3.1"));
    }

    @Test
    public void aSampleCellsColourIsTheSameInEveryChart() throws IOException {
        String html = render(sample());
        String millraceStack = "#0072B2";
        // every chart but the ceilings' shows the Millrace client on the Millrace broker except the
        // scaling ones (Kafka clients only): its colour is in each of them and in the table's header
        int withIt = 0;
        String[] charts = html.split("<svg");
        for (String svg : java.util.Arrays.copyOfRange(charts, 1, charts.length)) {
            if (svg.contains("Millrace client, Millrace broker")) {
                assertTrue(svg.contains(millraceStack));
                withIt++;
            }
        }
        assertEquals(count(html, "<svg") - 1 - 2, withIt);
    }

    @Test
    public void aMinimalResultWithOneCellRenders() throws IOException {
        String html = render("""
            {"figures": [{"scenario": "1. producer batch 50", "metric": "records/s",
                          "values": {"only-cell": {"runs": [1000.0, 3000.0]}}}]}
            """);
        assertTrue(html.contains("only-cell"));
        assertTrue("the median computed from the runs", html.contains("<div class=\"median\">2,000</div>"));
        assertEquals(1, count(html, "<svg"));
        assertFalse(html.contains("Throughput over time"));
        assertFalse(html.contains("Machine ceilings"));
    }

    @Test
    public void missingAndNullValuesLeaveOutWhatTheyWouldHaveShown() throws IOException {
        String html = render("""
            {"date": null, "machine": "not an object", "runs": "three",
             "cells": [{"id": "a", "label": "Cell A"}, {"id": "b", "label": "Cell B"}, {"label": "no id"}, 7],
             "ratios": [{"id": "r", "numerator": "a", "denominator": "b"}],
             "figures": [
               {"scenario": "1. producer", "metric": "records/s",
                "values": {"a": {"runs": [null, null], "min": null, "median": null, "max": null}, "b": null}},
               {"scenario": "3. end-to-end", "metric": "p99 ms", "values": {"a": {"runs": [0.0], "median": 0.0}},
                "ratios": {"r": {"runs": [null]}}},
               {"metric": "MB/s"}, "junk"],
             "ceilings": [{"name": "page-cache write", "messages_per_second": null}],
             "timelines": [{"scenario": "1. producer", "cell": "a", "records_per_second": [null, null]},
                           {"scenario": "2. consumer", "cell": "b", "interval_ms": 0, "records_per_second": [5.0]}]}
            """);
        assertTrue(html.contains("Cell A"));
        assertTrue(html.contains("n/a"));
        assertEquals("no value anywhere, so no chart", 0, count(html, "<svg"));
        assertFalse(html.contains("% of page cache"));
    }

    @Test
    public void anEmptyObjectGivesAPageWithItsHeadingOnly() throws IOException {
        String html = render("{}");
        assertTrue(html.contains("<h1>"));
        assertFalse(html.contains("<h2>"));
    }

    @Test
    public void textFromTheResultsIsEscaped() throws IOException {
        String html = render("""
            {"cells": [{"id": "x", "label": "<script>alert(1)</script> & co"}],
             "figures": [{"scenario": "s <b>", "metric": "records/s", "values": {"x": {"runs": [1.0]}}}]}
            """);
        assertFalse(html.toLowerCase().contains("<script"));
        assertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; co"));
        assertTrue(html.contains("s &lt;b&gt;"));
    }

    @Test(expected = IOException.class)
    public void aFileThatIsNotJsonIsAnIoError() throws IOException {
        render("this is not json");
    }

    @Test
    public void mainRewritesTheReportOfASavedResult() throws IOException {
        Path dir = tmp.newFolder().toPath();
        Files.writeString(dir.resolve(HtmlReport.RESULTS), sample());
        HtmlReport.main(new String[] {dir.toString()});
        assertTrue(Files.readString(dir.resolve(HtmlReport.REPORT)).contains("<svg"));
    }

    @Test
    public void theFlameGraphsOfAJfrRunAreLinkedFromTheReport() throws IOException {
        Path dir = tmp.newFolder().toPath();
        Files.writeString(dir.resolve(HtmlReport.RESULTS), sample());
        Path flames = Files.createDirectories(dir.resolve(HtmlReport.FLAMES));
        Files.writeString(flames.resolve("2-consumer--b.svg"), "<svg/>");
        Files.writeString(flames.resolve("1-producer--a.svg"), "<svg/>");
        Files.writeString(flames.resolve("top-frames.md"), "# not a flame graph");

        String html = Files.readString(HtmlReport.write(dir));
        assertTrue(html.contains("<h2>Flame graphs</h2>"));
        int first = html.indexOf("<a href=\"flames/1-producer--a.svg\">");
        assertTrue("linked, in name order", first > 0 && first < html.indexOf("<a href=\"flames/2-consumer--b.svg\">"));
        assertFalse(html.contains("top-frames.md"));
        assertFalse("no section without a --jfr run", render(sample()).contains("Flame graphs"));
    }

    private String render(String json) throws IOException {
        Path dir = tmp.newFolder().toPath();
        Files.writeString(dir.resolve(HtmlReport.RESULTS), json, StandardCharsets.UTF_8);
        Path report = HtmlReport.write(dir);
        assertEquals(dir.resolve(HtmlReport.REPORT), report);
        return Files.readString(report, StandardCharsets.UTF_8);
    }

    private static String sample() throws IOException {
        try (InputStream in = HtmlReportTest.class.getResourceAsStream("sample-results.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
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
