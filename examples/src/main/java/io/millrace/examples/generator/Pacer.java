package io.millrace.examples.generator;

import io.millrace.common.utils.Time;

/**
 * Holds a sender to a rate: event {@code n} is due {@code n / rate} seconds after the start, and
 * {@link #awaitTurn(long)} sleeps until then when the sender is ahead. Measuring from the start rather than
 * from the previous event keeps the average rate exact however coarse the sleeps are, and a sender that fell
 * behind (a slow send) catches up without waiting. Not thread-safe.
 */
final class Pacer {

    private static final long MIN_SLEEP_NANOS = 1_000_000;

    private final double perSecond;
    private final Time time;
    private final long startNanos;

    /** A pacer at {@code perSecond} events per second from now; 0 for no limit. */
    Pacer(double perSecond, Time time) {
        this.perSecond = perSecond;
        this.time = time;
        this.startNanos = time.nanoseconds();
    }

    /** Waits until event {@code n} (from 0) is due. */
    void awaitTurn(long n) {
        if (perSecond <= 0) {
            return;
        }
        long dueNanos = startNanos + (long) (n * 1e9 / perSecond);
        long aheadNanos = dueNanos - time.nanoseconds();
        // sleeping takes whole milliseconds: shorter leads are left for the next events to make up
        if (aheadNanos >= MIN_SLEEP_NANOS) {
            time.sleep(aheadNanos / 1_000_000);
        }
    }
}
