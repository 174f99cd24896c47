package io.millrace.audit;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAccumulator;

/**
 * Latencies in milliseconds, kept in logarithmic buckets four to a power of two (each about 19% wide),
 * so that a window's p50 and p99 cost a fixed 1.3 KB however many events it holds. Recording is one
 * atomic increment; percentiles report a bucket's upper bound, never below the true value. Negative
 * latencies (an event time ahead of this clock) count as 0. Thread-safe.
 */
final class LatencyHistogram {

    private static final int STEPS_PER_DOUBLING = 4;
    private static final int BUCKETS = STEPS_PER_DOUBLING * 42;   // up to 2^42 ms, about 139 years
    private static final long[] UPPER_BOUNDS = upperBounds();

    private final AtomicLongArray buckets = new AtomicLongArray(BUCKETS);
    private final LongAccumulator max = new LongAccumulator(Math::max, 0);

    void record(long latencyMs) {
        long ms = Math.max(0, latencyMs);
        buckets.incrementAndGet(bucketOf(ms));
        max.accumulate(ms);
    }

    /** Records {@code times} latencies that share a bucket, the largest of them {@code largestMs}. */
    void record(long largestMs, long times) {
        long ms = Math.max(0, largestMs);
        buckets.addAndGet(bucketOf(ms), times);
        max.accumulate(ms);
    }

    /** Takes the latencies recorded so far and starts afresh: p50, p99 and max of what was taken. */
    Summary drain() {
        long[] counts = new long[BUCKETS];
        long total = 0;
        for (int i = 0; i < BUCKETS; i++) {
            counts[i] = buckets.getAndSet(i, 0);
            total += counts[i];
        }
        long maxMs = max.getThenReset();
        if (total == 0) {
            return Summary.NONE;
        }
        return new Summary(Math.min(maxMs, percentile(counts, total, 0.50)), Math.min(maxMs, percentile(counts, total, 0.99)),
            maxMs);
    }

    /** Moves every latency recorded here into {@code target}, leaving this histogram empty. */
    void drainInto(LatencyHistogram target) {
        for (int i = 0; i < BUCKETS; i++) {
            long n = buckets.getAndSet(i, 0);
            if (n > 0) {
                target.buckets.addAndGet(i, n);
            }
        }
        target.max.accumulate(max.getThenReset());
    }

    /** p50, p99 and max in ms; all 0 when nothing was recorded. */
    record Summary(long p50Ms, long p99Ms, long maxMs) {
        static final Summary NONE = new Summary(0, 0, 0);
    }

    private static long percentile(long[] counts, long total, double quantile) {
        long rank = (long) Math.ceil(quantile * total);
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return upperBound(i);
            }
        }
        return upperBound(counts.length - 1);
    }

    /**
     * The bucket of {@code ms}: the smallest {@code i} whose {@link #upperBound} is at least {@code ms}, that is
     * {@code ceil(4 log2(ms + 1))}. Found from the highest bit and at most five comparisons: it runs for every
     * event a tier counts, where two {@code Math.log} calls cost more than the rest of the counting together.
     */
    static int bucketOf(long ms) {
        if (ms <= 0) {
            return 0;
        }
        int doublings = 63 - Long.numberOfLeadingZeros(ms + 1);   // 2^doublings <= ms + 1 < 2^(doublings + 1)
        int i = Math.min(BUCKETS - 1, doublings * STEPS_PER_DOUBLING);
        while (i < BUCKETS - 1 && UPPER_BOUNDS[i] < ms) {
            i++;
        }
        return i;
    }

    /** The largest latency that falls in bucket {@code i}. */
    static long upperBound(int i) {
        return UPPER_BOUNDS[i];
    }

    private static long[] upperBounds() {
        long[] bounds = new long[BUCKETS];
        for (int i = 0; i < BUCKETS; i++) {
            bounds[i] = (long) Math.floor(Math.pow(2, (double) i / STEPS_PER_DOUBLING) - 1.0);
        }
        return bounds;
    }
}
