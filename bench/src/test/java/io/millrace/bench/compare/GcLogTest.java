package io.millrace.bench.compare;

import static org.junit.Assert.assertEquals;

import java.time.Instant;
import java.util.List;
import org.junit.Test;

public class GcLogTest {

    private static final List<String> LOG = List.of(
        "[2026-11-27T09:10:00.100+0000] Using G1",
        "[2026-11-27T09:10:01.000+0000] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->14M(388M) 4.243ms",
        "[2026-11-27T09:10:02.000+0000] GC(1) Pause Young (Concurrent Start) (G1 Humongous Allocation) 30M->20M(388M) 12.500ms",
        "[2026-11-27T09:10:02.500+0000] GC(2) Concurrent Mark Cycle 120.000ms",
        "[2026-11-27T09:10:03.000+0000] GC(2) Pause Remark 40M->40M(388M) 1.000ms",
        "[2026-11-27T09:10:09.000+0000] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 24M->14M(388M) 50.000ms");

    @Test
    public void countsOnlyThePausesThatEndedInTheWindow() {
        GcLog.Pauses p = GcLog.between(LOG, Instant.parse("2026-11-27T09:10:00.500Z"), Instant.parse("2026-11-27T09:10:05Z"));
        assertEquals(3, p.count());
        assertEquals(17.743, p.totalMillis(), 1e-9);
        assertEquals(12.5, p.longestMillis(), 1e-9);
    }

    @Test
    public void aConcurrentPhaseIsNotAPause() {
        GcLog.Pauses p = GcLog.between(LOG, Instant.parse("2026-11-27T09:10:02.400Z"), Instant.parse("2026-11-27T09:10:02.600Z"));
        assertEquals(GcLog.Pauses.NONE, p);
    }

    @Test
    public void otherTimeZonesAreReadAsTheSameInstant() {
        GcLog.Pauses p = GcLog.between(List.of("[2026-11-27T10:10:01.000+0100] GC(0) Pause Full (System.gc()) 5M->4M(64M) 8.000ms"),
            Instant.parse("2026-11-27T09:10:00Z"), Instant.parse("2026-11-27T09:10:02Z"));
        assertEquals(1, p.count());
    }
}
