package io.millrace.examples.topn;

import static org.junit.Assert.assertEquals;

import java.util.List;
import org.junit.Test;

/** Windows close when the slowest partition has passed their end by the allowed lateness. */
public class EventTimeWatermarkTest {

    private final EventTimeWatermark watermark = new EventTimeWatermark(10_000, 5_000);

    @Test
    public void nothingClosesUntilEveryPartitionHasShownAnEvent() {
        watermark.assign(List.of(0, 1));
        watermark.observe(0, 100_000);
        assertEquals(Long.MIN_VALUE, watermark.closedWindowEnd());
    }

    @Test
    public void theSlowestPartitionLessTheLatenessDecides() {
        watermark.assign(List.of(0, 1));
        watermark.observe(0, 100_000);
        watermark.observe(1, 44_999);
        assertEquals(30_000, watermark.closedWindowEnd());
        watermark.observe(1, 45_000);
        assertEquals(40_000, watermark.closedWindowEnd());
        watermark.observe(1, 20_000);   // a late event does not move the watermark back
        assertEquals(40_000, watermark.closedWindowEnd());
    }

    @Test
    public void aPartitionGivenAwayNoLongerHoldsTheWatermarkBack() {
        watermark.assign(List.of(0, 1));
        watermark.observe(0, 100_000);
        watermark.observe(1, 25_000);
        watermark.assign(List.of(0));
        assertEquals(90_000, watermark.closedWindowEnd());
    }
}
