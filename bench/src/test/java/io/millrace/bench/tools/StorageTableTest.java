package io.millrace.bench.tools;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.bench.tools.StorageReport.Settings;
import io.millrace.bench.tools.StorageTable.Measurement;
import java.util.List;
import org.junit.Test;

public class StorageTableTest {

    // 1000-byte batches keep the arithmetic readable.
    private final StorageTable table = new StorageTable(List.of(
        new Measurement("logAppend", 50, 90_000, 1_000, 80_000, 300),
        new Measurement("rawWrite", 50, 100_000, 2_000, 100_000, 56),
        new Measurement("logRead", 50, 70_000, Double.NaN, 70_000, Double.NaN),
        new Measurement("rawRead", 50, 100_000, 0, 100_000, 0)), n -> 1000);

    @Test
    public void rowsGiveRecordsAndMegabytesPerSecondInTableOrder() {
        String[] lines = table.markdown().split("\n");
        assertEquals(6, lines.length);
        assertEquals("| 50 × 200 B (1,000 B) | rawWrite | 100,000 | 5,000,000 | 100.0 | 2.0 |  |  | 56 |", lines[2]);
        assertEquals("| 50 × 200 B (1,000 B) | logAppend | 90,000 | 4,500,000 | 90.0 | 1.0 | 90% | 80% | 300 |", lines[3]);
        assertTrue(lines[4].contains("| rawRead |"));
        assertEquals("| 50 × 200 B (1,000 B) | logRead | 70,000 | 3,500,000 | 70.0 |  | 70% | 70% |  |", lines[5]);
    }

    @Test
    public void verdictComparesEachLogOpWithItsRawOp() {
        assertEquals("Target at 50 × 200 B, log ≥ 80% of raw (means): append 90% of rawWrite (met), "
            + "read 70% of rawRead (NOT met).", table.verdict(50, 0.8));
        assertTrue(table.verdict(1, 0.8).endsWith("append not measured, read not measured."));
    }

    @Test
    public void eachRawOpRunsNextToItsLogOpAndTheOrderAlternates() {
        assertEquals(List.of("rawWrite", "logAppend", "rawRead", "logRead"), StorageReport.runOrder(StorageTable.OPS, 0));
        assertEquals(List.of("logAppend", "rawWrite", "logRead", "rawRead"), StorageReport.runOrder(StorageTable.OPS, 1));
        assertEquals(List.of("logRead"), StorageReport.runOrder(List.of("logRead"), 0));
    }

    @Test
    public void medianOfOddAndEvenCounts() {
        assertEquals(2.0, StorageReport.median(List.of(3.0, 1.0, 2.0)), 0);
        assertEquals(2.5, StorageReport.median(List.of(4.0, 1.0, 2.0, 3.0)), 0);
        assertTrue(Double.isNaN(StorageReport.median(List.of())));
    }

    @Test
    public void settingsParseAndRejectNonsense() {
        Settings settings = Settings.parse("--rounds", "2", "--batch-sizes", "50", "--ops", "rawRead,logRead", "--no-gc");
        assertEquals(2, settings.rounds);
        assertEquals(List.of("50"), settings.batchSizes);
        assertEquals(List.of("rawRead", "logRead"), settings.ops);
        assertEquals(false, settings.gc);
        assertThrows(IllegalArgumentException.class, () -> Settings.parse("--ops", "logDelete"));
        assertThrows(IllegalArgumentException.class, () -> Settings.parse("--rounds", "0"));
        assertThrows(IllegalArgumentException.class, () -> Settings.parse("--time"));
    }
}
