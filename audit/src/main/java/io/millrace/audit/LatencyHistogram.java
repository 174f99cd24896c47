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

    private final AtomicLongArray buckets = new AtomicLongArray(BUCKETS);
    private final LongAccumulator max = new LongAccumulator(Math::max, 0);

    void record(long latencyMs) {
        long ms = Math.max(0, latencyMs);
        buckets.incrementAndGet(bucketOf(ms));
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

    static int bucketOf(long ms) {
        if (ms == 0) {
            return 0;
        }
        double position = Math.log(ms + 1.0) / Math.log(2) * STEPS_PER_DOUBLING;
        return (int) Math.min(BUCKETS - 1, Math.ceil(position));
    }

    /** The largest latency that falls in bucket {@code i}. */
    static long upperBound(int i) {
        return (long) Math.floor(Math.pow(2, (double) i / STEPS_PER_DOUBLING) - 1.0);
    }
}
