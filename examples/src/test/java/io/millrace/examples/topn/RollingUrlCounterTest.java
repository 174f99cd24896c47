package io.millrace.examples.topn;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.Test;

/** The rolling counter counts each window from its slide buckets, by event time, and forgets what slid out. */
public class RollingUrlCounterTest {

    private final RollingUrlCounter counter = new RollingUrlCounter(Duration.ofSeconds(30), Duration.ofSeconds(10));

    @Test
    public void aWindowCountsTheViewsOfItsBucketsOnly() {
        counter.add("/a", 9_999);      // bucket [0, 10 s): outside the window ending at 40 s
        counter.add("/a", 10_000);
        counter.add("/a", 25_000);
        counter.add("/b", 39_999);
        counter.add("/b", 40_000);     // bucket [40 s, 50 s): after the window
        assertEquals(Map.of("/a", 2L, "/b", 1L), counter.countsOfWindowEndingAt(40_000));
        assertEquals(Map.of("/a", 3L), counter.countsOfWindowEndingAt(30_000));
    }

    @Test
    public void aLateViewCountsInTheBucketOfItsEventTime() {
        counter.add("/a", 35_000);
        assertTrue(counter.add("/a", 12_000));
        assertEquals(Map.of("/a", 1L), counter.countsOfWindowEndingAt(20_000));
        assertEquals(Map.of("/a", 2L), counter.countsOfWindowEndingAt(40_000));
    }

    @Test
    public void slidingDropsBucketsAndRefusesViewsOlderThanTheWindow() {
        counter.add("/a", 5_000);
        counter.add("/a", 15_000);
        counter.slideTo(40_000);       // keeps buckets from 10 s on
        assertEquals(Map.of("/a", 1L), counter.countsOfWindowEndingAt(30_000));
        assertFalse(counter.add("/a", 9_999));
        assertTrue(counter.add("/a", 10_000));
        assertEquals(Map.of("/a", 2L), counter.countsOfWindowEndingAt(40_000));
    }

    @Test
    public void theWindowEndAfterAnEventClosesItsBucket() {
        assertEquals(20_000, counter.windowEndAfter(10_000));
        assertEquals(20_000, counter.windowEndAfter(19_999));
        assertEquals(0, counter.windowEndAfter(-1));
    }

    @Test(expected = IllegalArgumentException.class)
    public void aWindowMustBeAWholeNumberOfSlides() {
        new RollingUrlCounter(Duration.ofSeconds(25), Duration.ofSeconds(10));
    }
}
