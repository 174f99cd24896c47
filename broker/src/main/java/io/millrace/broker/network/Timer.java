package io.millrace.broker.network;

import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Durations since the timer was created: how many, their mean and their maximum. Exported in
 * milliseconds as {@code <name>-avg} and {@code <name>-max}; recorded in nanoseconds from
 * {@link io.millrace.common.utils.Time#nanoseconds()}. Lifetime figures, not a sliding window:
 * a monitoring system that polls them derives rates and recent means from the differences.
 * Thread-safe; {@link #record} does not allocate.
 */
public final class Timer {

    private static final double NANOS_PER_MS = 1_000_000.0;

    private final LongAdder count = new LongAdder();
    private final LongAdder totalNanos = new LongAdder();
    private final LongAccumulator maxNanos = new LongAccumulator(Math::max, 0);

    public void record(long nanos) {
        long n = Math.max(0, nanos);
        count.increment();
        totalNanos.add(n);
        maxNanos.accumulate(n);
    }

    public long count() {
        return count.sum();
    }

    /** The mean in milliseconds, 0 before the first record. */
    public double avgMs() {
        long c = count.sum();
        return c == 0 ? 0.0 : totalNanos.sum() / NANOS_PER_MS / c;
    }

    public double maxMs() {
        return maxNanos.get() / NANOS_PER_MS;
    }
}
