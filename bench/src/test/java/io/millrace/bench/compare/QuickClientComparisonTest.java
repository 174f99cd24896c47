package io.millrace.bench.compare;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * {@code bin/millrace bench-clients} at a tiny scale: both clients produce and consume against the
 * same Millrace broker and every figure gets a finite number per side. Asserts nothing about speed.
 */
public class QuickClientComparisonTest {

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @Test(timeout = 180_000)
    public void bothClientsProduceNumbersAgainstOneBroker() throws Exception {
        ClientComparison bench = new ClientComparison(0.01, 1, tmp.newFolder("data").toPath());
        bench.run();
        Map<String, Map<String, List<Double>>> figures = bench.figures();
        assertEquals(Set.of("producer batch 50 × 200 B, records/s", "consumer 200 KB fetches, records/s"),
            figures.keySet());
        figures.forEach((figure, sides) -> sides.forEach((side, values) -> {
            // one round asked for is two run: each client goes first once
            assertEquals(figure + " " + side, 2, values.size());
            values.forEach(v -> assertTrue(figure + " " + side + ": " + values, Double.isFinite(v) && v > 0));
        }));
        ByteArrayOutputStream table = new ByteArrayOutputStream();
        bench.report(new PrintStream(table, true, StandardCharsets.UTF_8));
        assertTrue(table.toString(StandardCharsets.UTF_8).contains("| producer batch 50 × 200 B, records/s |"));
    }
}
