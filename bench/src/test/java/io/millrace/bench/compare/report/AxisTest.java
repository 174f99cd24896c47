package io.millrace.bench.compare.report;

import static org.junit.Assert.assertEquals;

import java.util.List;
import org.junit.Test;

public class AxisTest {

    @Test
    public void aLinearAxisEndsAtARoundValueAtOrAboveTheMaximum() {
        Axis a = Axis.linear(1_184_502);
        assertEquals(List.of(0.0, 500_000.0, 1_000_000.0, 1_500_000.0), a.ticks());
        assertEquals(1.0, a.fraction(1_500_000), 1e-9);
        assertEquals(0.5, a.fraction(750_000), 1e-9);
    }

    @Test
    public void aLinearAxisOfNothingStillHasAScale() {
        assertEquals(List.of(0.0, 0.2, 0.4, 0.6, 0.8, 1.0), Axis.linear(0).ticks());
    }

    @Test
    public void aLogAxisSpansWholeDecades() {
        Axis a = Axis.logarithmic(1.29, 28.06);
        assertEquals(List.of(1.0, 10.0, 100.0), a.ticks());
        assertEquals(0.5, a.fraction(10), 1e-9);
        assertEquals("below the axis is clamped to its start", 0, a.fraction(0.01), 0);
    }

    @Test
    public void stepsAreOneTwoOrFiveTimesAPowerOfTen() {
        assertEquals(0.5, Axis.niceStep(0.3), 1e-12);
        assertEquals(2, Axis.niceStep(1.1), 1e-12);
        assertEquals(100, Axis.niceStep(100), 1e-12);
        assertEquals(500_000, Axis.niceStep(236_900), 1e-6);
    }

    @Test
    public void numbersAreWrittenWithTheDigitsTheyDeserve() {
        assertEquals("1,184,503", Numbers.format(1_184_502.7));
        assertEquals("236.9", Numbers.format(236.94));
        assertEquals("9.16", Numbers.format(9.16));
        assertEquals("0.0123", Numbers.format(0.01234));
        assertEquals("n/a", Numbers.format(null));
        assertEquals("1.18M", Numbers.label(1_184_502.7));
        assertEquals("40.4k", Numbers.label(40_378.5));
        assertEquals("1", Numbers.label(1.0));
        assertEquals("1.5M", Numbers.compact(1_500_000));
        assertEquals("8.5%", Numbers.percent(8.46));
    }
}
