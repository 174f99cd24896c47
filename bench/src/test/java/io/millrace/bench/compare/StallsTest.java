package io.millrace.bench.compare;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class StallsTest {

    @Test
    public void theLongestRunOfNearlyEmptyIntervalsCounts() {
        double[] rates = {5e6, 5e6, 0, 1e5, 0, 5e6, 0, 5e6};
        assertEquals(60, Stalls.longestMillis(rates, 20));
    }

    @Test
    public void aSlowStartIsNotAStall() {
        double[] rates = {0, 0, 1e5, 4e6, 5e6, 5e6};
        assertEquals(0, Stalls.longestMillis(rates, 20));
    }

    @Test
    public void aSteadyRunHasNone() {
        assertEquals(0, Stalls.longestMillis(new double[] {3e6, 2.5e6, 3.2e6}, 100));
        assertEquals(0, Stalls.longestMillis(new double[0], 100));
    }

    @Test
    public void aStallAtTheEndCounts() {
        double[] rates = {5e6, 5e6, 5e6, 0, 0};
        assertEquals(200, Stalls.longestMillis(rates, 100));
    }
}
