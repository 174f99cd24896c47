package io.millrace.common.metrics;

import io.millrace.common.utils.Time;
import java.util.concurrent.atomic.LongAdder;

/**
 * Events per second over roughly the last {@value #WINDOW_MS} ms (between one and two windows),
 * plus the lifetime total: what a JMX "per second" attribute reports (the producer's send rates, the
 * mirror's rates in and out). Recording is a counter increment; the rate is worked out when read.
 * Thread-safe.
 */
public final class RecentRate {

    public static final long WINDOW_MS = 30_000;

    private final LongAdder total = new LongAdder();
    private final Time time;
    private long previousMs;
    private long previousTotal;
    private long windowStartMs;
    private long windowStartTotal;

    public RecentRate(Time time) {
        this.time = time;
        this.previousMs = time.milliseconds();
        this.windowStartMs = previousMs;
    }

    public void record(long events) {
        total.add(events);
    }

    public long total() {
        return total.sum();
    }

    public synchronized double perSecond() {
        long now = time.milliseconds();
        long count = total.sum();
        if (now - windowStartMs >= WINDOW_MS) {
            previousMs = windowStartMs;
            previousTotal = windowStartTotal;
            windowStartMs = now;
            windowStartTotal = count;
        }
        long elapsedMs = Math.max(1_000, now - previousMs);
        return (count - previousTotal) * 1000.0 / elapsedMs;
    }
}
