package io.millrace.producer.internals;

import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Values recorded since the producer started: how many, their sum, mean and maximum. Lifetime
 * figures, as the broker's metrics are: a monitoring system polling them derives recent means from
 * the differences. Thread-safe; {@link #record} does not allocate.
 */
final class DurationStat {

    private final LongAdder count = new LongAdder();
    private final LongAdder total = new LongAdder();
    private final LongAccumulator max = new LongAccumulator(Math::max, 0);

    void record(long value) {
        long v = Math.max(0, value);
        count.increment();
        total.add(v);
        max.accumulate(v);
    }

    long count() {
        return count.sum();
    }

    long total() {
        return total.sum();
    }

    /** The mean divided by {@code unit} (e.g. 1e6 for nanoseconds shown as milliseconds), 0 before the first value. */
    double avg(double unit) {
        long c = count.sum();
        return c == 0 ? 0.0 : total.sum() / unit / c;
    }

    double max(double unit) {
        return max.get() / unit;
    }
}
