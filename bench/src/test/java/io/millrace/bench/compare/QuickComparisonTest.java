package io.millrace.bench.compare;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * {@code bin/millrace bench --quick} as CI runs it: both brokers start in their own JVMs, every
 * scenario produces a finite number for every run of either side, and the report and JSON are
 * written. Asserts nothing about which broker is faster.
 */
public class QuickComparisonTest {

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @Test(timeout = 180_000)
    public void everyScenarioProducesNumbersAgainstBothBrokers() throws Exception {
        Path out = tmp.newFolder("results").toPath();
        BrokerComparison bench = new BrokerComparison(BrokerComparison.QUICK_SCALE, BrokerComparison.QUICK_RUNS,
            "512m", out, tmp.newFolder("data").toPath());
        bench.run();

        assertEquals("figures without numbers", List.of(), bench.missing());
        Set<String> scenarios = new TreeSet<>();
        bench.figures.values().forEach(f -> scenarios.add(f.scenario));
        assertEquals(Set.of("1. producer batch 1", "1. producer batch 50", "1. producer tuned",
            "2. consumer 200 KB fetch", "2. consumer defaults", "4. storage after producer batch 1",
            "4. storage after producer batch 50", "4. storage after producer tuned"), scenarios);

        ByteArrayOutputStream table = new ByteArrayOutputStream();
        bench.report(new PrintStream(table, true, StandardCharsets.UTF_8));
        assertTrue(table.toString(StandardCharsets.UTF_8).contains("| 1. producer batch 1 | records/s |"));
        String json = Files.readString(bench.writeJson());
        assertTrue(json.contains("\"scenario\": \"2. consumer defaults\""));
        try (var files = Files.list(tmp.getRoot().toPath().resolve("data"))) {
            assertEquals("broker data directories left behind", 0, files.count());
        }
    }
}
