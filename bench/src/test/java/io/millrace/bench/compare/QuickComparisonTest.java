package io.millrace.bench.compare;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * {@code bin/millrace bench --quick} as CI runs it: both brokers start in their own JVMs, every
 * scenario produces a finite number for every run of every cell of the client x broker matrix, the
 * producer scenarios also for Millrace's producer with the audit on, with the audited / plain ratio,
 * and the report and JSON are written. Asserts nothing about which side is faster.
 */
public class QuickComparisonTest {

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @Test(timeout = 300_000)
    public void everyScenarioProducesNumbersAgainstBothBrokers() throws Exception {
        Path out = tmp.newFolder("results").toPath();
        BrokerComparison bench = new BrokerComparison(BrokerComparison.QUICK_SCALE, BrokerComparison.QUICK_RUNS,
            "512m", out, tmp.newFolder("data").toPath());
        bench.warmup = false; // as --quick
        bench.run();

        assertEquals("figures without numbers", List.of(), bench.missing());
        Set<String> scenarios = new TreeSet<>();
        bench.figures.values().forEach(f -> scenarios.add(f.scenario));
        assertEquals(Set.of("1. producer batch 1", "1. producer batch 50", "1. producer tuned",
            "2. consumer 200 KB fetch", "2. consumer defaults", BrokerComparison.E2E_FIXED, BrokerComparison.E2E_HALF,
            BrokerComparison.E2E_COMMON,
            "4. storage after producer batch 1", "4. storage after producer batch 50", "4. storage after producer tuned",
            "5. scaling, 1 broker, 3 producers", "5. scaling, 2 brokers, 3 producers", "5. scaling, 3 brokers, 3 producers",
            ReplicationScenario.Layout.REPLICATED.scenario, ReplicationScenario.Layout.SINGLE.scenario),
            scenarios);
        assertEquals(5, bench.ceilings.size());
        bench.ceilings.forEach(c -> assertTrue(c.name(), c.messagesPerSecond() > 0 && Double.isFinite(c.messagesPerSecond())));
        for (Figure f : bench.figures.values()) {
            boolean kafkaOnly = f.metric.startsWith("fetch request ms") || f.metric.equals("records/fetch")
                || f.scenario.startsWith("5.") || f.scenario.startsWith("7.");
            Set<Cell> expected = kafkaOnly ? Set.of(Cell.KAFKA_ON_MILLRACE, Cell.KAFKA_ON_KAFKA) : new HashSet<>(Cell.matrix());
            if (f.scenario.startsWith("1.")) {
                expected.add(Cell.AUDITED_MILLRACE_ON_MILLRACE);
                assertEquals(f.scenario + " " + f.metric + ": a ratio per run pair", BrokerComparison.QUICK_RUNS,
                    f.ratios(Ratio.AUDIT).size());
            }
            assertEquals(f.scenario + " " + f.metric + ": the cells of the matrix", expected, f.values.keySet());
        }
        Figure p99 = bench.figures.get(BrokerComparison.E2E_FIXED + "|p99 ms");
        for (Cell c : Cell.matrix()) {
            assertTrue(c + " p99 is a latency", p99.median(c) > 0 && p99.median(c) < 60_000);
        }

        ByteArrayOutputStream table = new ByteArrayOutputStream();
        bench.report(new PrintStream(table, true, StandardCharsets.UTF_8));
        assertTrue(table.toString(StandardCharsets.UTF_8).contains("| 1. producer batch 1 | records/s |"));
        assertTrue(table.toString(StandardCharsets.UTF_8).contains(" " + Ratio.AUDIT.label + " |"));
        JsonNode json = new ObjectMapper().readTree(bench.writeJson().toFile());
        assertEquals(5, json.get("cells").size());
        assertEquals(5, json.get("ceilings").size());
        JsonNode first = json.get("figures").get(0);
        assertEquals(BrokerComparison.QUICK_RUNS, first.get("values").get("millrace-client/millrace-broker").get("runs").size());
        assertTrue(first.get("ratios").has("broker"));
        assertTrue(first.get("ratios").has("stack"));
        assertEquals(BrokerComparison.QUICK_RUNS,
            first.get("values").get("millrace-audited-client/millrace-broker").get("runs").size());
        assertTrue(first.get("ratios").has("audit"));
        Set<String> timelineCells = new TreeSet<>();
        json.get("timelines").forEach(t -> {
            if (t.get("scenario").asText().equals("1. producer tuned")) {
                timelineCells.add(t.get("cell").asText());
                assertTrue("a throughput point per interval", t.get("records_per_second").size() > 0);
            }
        });
        assertEquals(5, timelineCells.size());
        String html = Files.readString(io.millrace.bench.compare.report.HtmlReport.write(out));
        assertTrue(html.contains("<svg"));
        assertTrue(html.contains(Cell.MILLRACE_ON_KAFKA.label()));
        try (var files = Files.list(tmp.getRoot().toPath().resolve("data"))) {
            assertEquals("broker data directories left behind", 0, files.count());
        }
    }
}
