package io.millrace.audit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class LatencyHistogramTest {

    @Test
    public void percentilesAreAtMostOneBucketAboveTheTrueValueAndNeverBelow() {
        LatencyHistogram histogram = new LatencyHistogram();
        for (int ms = 1; ms <= 1_000; ms++) {
            histogram.record(ms);
        }
        LatencyHistogram.Summary summary = histogram.drain();
        assertTrue("p50 " + summary.p50Ms(), summary.p50Ms() >= 500 && summary.p50Ms() <= 500 * 1.2);
        assertTrue("p99 " + summary.p99Ms(), summary.p99Ms() >= 990 && summary.p99Ms() <= 1_000);
        assertEquals(1_000, summary.maxMs());
        assertEquals("drained: empty again", LatencyHistogram.Summary.NONE, histogram.drain());
    }

    @Test
    public void everyValueFallsInABucketWhoseUpperBoundHoldsIt() {
        for (long ms : new long[] {0, 1, 2, 3, 7, 8, 100, 1_000, 65_535, 3_600_000, 86_400_000L * 365}) {
            int bucket = LatencyHistogram.bucketOf(ms);
            assertTrue(ms + " in bucket " + bucket, LatencyHistogram.upperBound(bucket) >= ms);
            assertTrue(ms + " not in a lower bucket", bucket == 0 || LatencyHistogram.upperBound(bucket - 1) < ms);
        }
        for (long ms = 0; ms <= 300_000; ms++) {   // every latency up to 5 minutes, the bucket edges included
            int bucket = LatencyHistogram.bucketOf(ms);
            if (LatencyHistogram.upperBound(bucket) < ms || bucket > 0 && LatencyHistogram.upperBound(bucket - 1) >= ms) {
                throw new AssertionError(ms + " in bucket " + bucket);
            }
        }
    }

    @Test
    public void aLatencyBelowZeroCountsAsZero() {
        LatencyHistogram histogram = new LatencyHistogram();
        histogram.record(-50);
        histogram.record(10);
        LatencyHistogram.Summary summary = histogram.drain();
        assertEquals("the median of {0, 10}", 0, summary.p50Ms());
        assertEquals(10, summary.maxMs());
    }
}
