package io.millrace.audit.report;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.millrace.audit.report.Reconciliation.Row;
import io.millrace.audit.report.Reconciliation.Status;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.Test;
import org.w3c.dom.Element;

/** The page on its own: odd names escaped, colours by share, the empty report, a day of windows. */
public class HtmlReportTest {

    private static final long W = 600_000;
    private static final long T0 = 1_800_000_000_000L - 1_800_000_000_000L % W;
    private static final long LONG_AFTER = T0 + 1_000 * W;

    private final List<AuditEntry> entries = new ArrayList<>();

    private void counted(String tier, String cluster, String host, String topic, long windowStart, long count) {
        entries.add(new AuditEntry(UUID.randomUUID().toString(), tier, cluster, host, "app", topic, 0,
            new AuditEntry.Window(windowStart, windowStart + W, count, count * 10, 0, 0, 0), null));
    }

    private ParsedPage page(AuditReport report) throws Exception {
        return ParsedPage.parse(HtmlReport.render(report, LONG_AFTER));
    }

    @Test
    public void namesWithMarkupOrControlCharactersAreEscapedAndTheirTextKept() throws Exception {
        String topic = "a<b>&\"c'd";
        counted("producer", "dc1", "h&<x>\u0001", topic, T0, 10);
        counted("live", "dc1", "mm", topic, T0, 9);
        entries.add(new AuditEntry(UUID.randomUUID().toString(), "live", "dc1", "mm", "mirror", topic, 0, null,
            new AuditEntry.Lost(0, 5, 9, 5)));
        ParsedPage page = page(Reconciliation.reconcile(entries, LONG_AFTER, W));

        Element row = ParsedPage.ancestor(page.all("rect", "cell").get(0), "g");
        assertEquals(topic, row.getAttribute("data-topic"));
        Element incomplete = page.all("tr", "incomplete-row").get(0);
        assertEquals(topic, ParsedPage.cell(incomplete, "topic"));
        assertEquals("a character XML does not allow is replaced", "h&<x>\uFFFD",
            ParsedPage.one(incomplete, "span", "producer").getAttribute("data-host"));
        assertEquals(topic, ParsedPage.cell(page.all("tr", "lost-row").get(0), "topic"));
        assertEquals(topic, page.all("figure", "topic-chart").get(0).getAttribute("data-topic"));
    }

    @Test
    public void cellsAreColouredByTheShareCountedAndPendingOnesStandApart() {
        String pending = HeatMap.colour(row(100, 3, Status.PENDING));
        Set<String> others = new HashSet<>();
        for (long counted : new long[] {100, 9_999, 9_990, 9_950, 9_800, 9_400, 5_000, 10_001}) {
            Status status = counted == 10_000 ? Status.COMPLETE : counted > 10_000 ? Status.OVER : Status.INCOMPLETE;
            others.add(HeatMap.colour(row(10_000, counted, status)));
        }
        others.add(HeatMap.colour(row(10_000, 10_000, Status.COMPLETE)));
        assertEquals("complete, five bands of shortfall, over", 7, others.size());
        assertFalse(others.contains(pending));
        assertEquals(HeatMap.colour(row(1_000, 999, Status.INCOMPLETE)), HeatMap.colour(row(10_000, 9_990, Status.INCOMPLETE)));
        List<String> legend = HeatMap.legend().stream().map(e -> e[1]).toList();
        assertTrue("every colour is in the legend", legend.containsAll(others) && legend.contains(pending));
    }

    private static Row row(long expected, long counted, Status status) {
        return new Row("t", T0, T0 + W, "live", "dc1", expected, counted, status, Map.of());
    }

    @Test
    public void anEmptyReportIsAPageThatSaysSo() throws Exception {
        ParsedPage page = page(Reconciliation.reconcile(List.of(), LONG_AFTER, W));
        assertEquals("COMPLETE", page.byId("status").getTextContent());
        assertTrue(page.text(), page.text().contains("No window with traffic."));
        assertEquals(0, page.all("svg", null).size());
    }

    @Test
    public void aDayOfWindowsIsOneCellEachAndLinesWithoutPointMarkers() throws Exception {
        for (int w = 0; w < 144; w++) {
            counted("producer", "dc1", "fe-1", "views", T0 + w * W, 1_000 + w);
            counted("live", "dc1", "mm", "views", T0 + w * W, 1_000 + w - (w == 77 ? 1 : 0));
        }
        ParsedPage page = page(Reconciliation.reconcile(entries, LONG_AFTER, W));
        List<Element> cells = page.all("rect", "cell");
        assertEquals(144, cells.size());
        Element short77 = cells.get(77);
        assertEquals(List.of(Long.toString(T0 + 77 * W), "1077", "1076", "1", "INCOMPLETE"),
            List.of(short77.getAttribute("data-window"), short77.getAttribute("data-expected"),
                short77.getAttribute("data-counted"), short77.getAttribute("data-missing"), short77.getAttribute("data-status")));
        assertEquals("columns in window order", Integer.parseInt(cells.get(1).getAttribute("x")) * 77,
            Integer.parseInt(short77.getAttribute("x")));
        assertEquals(2, page.all("polyline", "series").size());
        assertEquals(0, page.all("circle", null).size());
    }

    @Test
    public void theValueAxisEndsAtARoundNumber() {
        assertEquals(1, CountChart.niceCeiling(0));
        assertEquals(1, CountChart.niceCeiling(1));
        assertEquals(5, CountChart.niceCeiling(3));
        assertEquals(20, CountChart.niceCeiling(11));
        assertEquals(1_000, CountChart.niceCeiling(540));
        assertEquals(Long.MAX_VALUE, CountChart.niceCeiling(Long.MAX_VALUE));
    }
}
