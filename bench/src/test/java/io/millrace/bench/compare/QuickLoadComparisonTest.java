package io.millrace.bench.compare;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.bench.compare.LoadScenarios.Load;
import io.millrace.bench.compare.LoadScenarios.Timed;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * {@code bin/millrace bench-load} at a tiny scale: the consumer and a load on the LocalJobRunner read
 * the same topic, every side gets a finite number, and the load loaded exactly the topic's events.
 * Asserts nothing about speed.
 */
public class QuickLoadComparisonTest {

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @Test(timeout = 180_000)
    public void theConsumerAndTheLoadBothReadTheWholeTopic() throws Exception {
        LoadComparison bench = new LoadComparison(0.002, 1, tmp.newFolder("data").toPath());
        bench.run();
        long messages = bench.topic().messages();
        assertEquals(20_000, messages);
        double bytesPerEvent = bench.topic().valueBytes() / (double) messages;
        assertTrue("about 200 B per event: " + bytesPerEvent, Math.abs(bytesPerEvent - LoadEvents.WIRE_BYTES) < 3);
        bench.results().forEach((side, runs) -> {
            assertEquals(side, 1, runs.size());
            Timed timed = runs.get(0);
            assertEquals(side, messages, timed.records());
            assertEquals(side, bench.topic().valueBytes(), timed.valueBytes());
            assertTrue(side + ": " + timed, Double.isFinite(timed.recordsPerSecond()) && timed.recordsPerSecond() > 0);
        });
        List<Load> loads = bench.loads();
        assertEquals(1, loads.size());
        assertTrue("Avro files were written: " + loads.get(0), loads.get(0).files() > 0 && loads.get(0).fileBytes() > 0);

        ByteArrayOutputStream table = new ByteArrayOutputStream();
        bench.report(new PrintStream(table, true, StandardCharsets.UTF_8));
        String report = table.toString(StandardCharsets.UTF_8);
        assertTrue(report, report.contains("| " + LoadComparison.LOAD + " | "));
        assertTrue(report, report.contains("| load / " + LoadComparison.DECODED + " | "));
    }

    @Test
    public void theLoadAndTheConsumerTakeTurnsGoingFirst() {
        assertEquals(List.of(LoadComparison.BYTES, LoadComparison.DECODED, LoadComparison.LOAD), LoadComparison.order(1));
        assertEquals(List.of(LoadComparison.LOAD, LoadComparison.DECODED, LoadComparison.BYTES), LoadComparison.order(2));
    }
}
