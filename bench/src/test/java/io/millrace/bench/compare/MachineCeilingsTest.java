package io.millrace.bench.compare;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.bench.compare.MachineCeilings.Ceiling;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** Scenario 6 at a tiny scale: all four ceilings come back as real rates and no file is left. */
public class MachineCeilingsTest {

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @Test(timeout = 60_000)
    public void measuresAllFiveCeilingsAndCleansUp() throws Exception {
        Path data = tmp.newFolder("data").toPath();
        List<Ceiling> ceilings = MachineCeilings.measure(data, 0.002);

        assertEquals(List.of(MachineCeilings.PAGE_CACHE_WRITE, MachineCeilings.PAGE_CACHE_READ,
            MachineCeilings.FSYNC_WRITE, MachineCeilings.LOOPBACK, MachineCeilings.ROUND_TRIP),
            ceilings.stream().map(Ceiling::name).toList());
        for (Ceiling c : ceilings) {
            assertTrue(c.toString(), c.bytesPerSecond() > 0 && Double.isFinite(c.bytesPerSecond()));
            assertEquals(c.bytesPerSecond() / Scenarios.MESSAGE_BYTES, c.messagesPerSecond(), 1e-9);
        }
        try (var left = Files.list(data)) {
            assertEquals("files left behind", 0, left.count());
        }
    }

    @Test
    public void scaledSizesAreWholeChunksAndAtLeastOne() {
        assertEquals(1 << 20, MachineCeilings.scaled(MachineCeilings.FSYNC_BYTES, 0.0001, 1 << 20));
        assertEquals(32L << 20, MachineCeilings.scaled(MachineCeilings.FSYNC_BYTES, 0.5, 1 << 20));
        assertEquals(2L << 30, MachineCeilings.scaled(MachineCeilings.LOOPBACK_BYTES, 1, 64 << 10));
        assertEquals(10_000, MachineCeilings.ROUND_TRIP_REQUEST_BYTES);
        assertEquals(200L * 10_000, MachineCeilings.scaled(MachineCeilings.ROUND_TRIPS * MachineCeilings.ROUND_TRIP_REQUEST_BYTES, 0.002,
            MachineCeilings.ROUND_TRIP_REQUEST_BYTES));
    }
}
