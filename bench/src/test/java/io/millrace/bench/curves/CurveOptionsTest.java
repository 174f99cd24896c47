package io.millrace.bench.curves;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.file.Path;
import org.junit.Test;

public class CurveOptionsTest {

    @Test
    public void theFullRunIsTenGigabytesInAThousandSegmentsAndFiveMillionRecordsAPoint() {
        CurveOptions o = CurveOptions.parse();
        assertEquals(3, o.runs());
        assertTrue(o.warmup());
        assertEquals(5_000_000, o.records());
        assertEquals(10_000_000_000L, o.restartBytes());
        assertEquals(1000, o.restartSegments());
        assertEquals(10_000_000, o.segmentBytes());
        assertTrue(o.out().toString().startsWith(Path.of("bench", "results", "curves-").toString()));
        assertTrue(o.runs('a') && o.runs('b') && o.runs('c') && o.runs('d'));
    }

    @Test
    public void quickScalesDownToTwoHundredMegabytesInAHundredSegmentsWithoutWarmUp() {
        CurveOptions o = CurveOptions.parse("--quick");
        assertEquals(1, o.runs());
        assertFalse(o.warmup());
        assertEquals(200_000_000L, o.restartBytes());
        assertEquals(100, o.restartSegments());
        assertEquals(2_000_000, o.segmentBytes());
    }

    @Test
    public void explicitOptionsOverrideQuick() {
        CurveOptions o = CurveOptions.parse("--quick", "--runs", "2", "--records", "5000", "--restart-gb", "0.5",
            "--curves", "bd", "--out", "x", "--heap", "512m");
        assertEquals(2, o.runs());
        assertEquals(5000, o.records());
        assertEquals(500_000_000L, o.restartBytes());
        assertEquals(Path.of("x"), o.out());
        assertEquals("512m", o.heap());
        assertTrue(o.runs('b') && o.runs('d'));
        assertFalse(o.runs('a') || o.runs('c'));
    }

    @Test
    public void segmentsAreNeverSmallerThanKafkasMinimumOfOneMebibyte() {
        assertEquals(1 << 20, CurveOptions.parse("--restart-gb", "0.01").segmentBytes());
    }

    @Test
    public void misuseIsRefusedAndHelpIsNull() {
        assertNull(CurveOptions.parse("--help"));
        assertThrows(IllegalArgumentException.class, () -> CurveOptions.parse("--runs", "0"));
        assertThrows(IllegalArgumentException.class, () -> CurveOptions.parse("--runs"));
        assertThrows(IllegalArgumentException.class, () -> CurveOptions.parse("--curves", "ax"));
        assertThrows(IllegalArgumentException.class, () -> CurveOptions.parse("--bogus"));
    }
}
