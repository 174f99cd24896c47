package io.millrace.common.utils;

/**
 * The clock every time-driven decision reads: segment roll, retention, flush intervals,
 * producer linger, session timeouts. Production code gets {@link #SYSTEM}; tests move a
 * {@code MockTime} instead of sleeping.
 */
public interface Time {

    Time SYSTEM = new SystemTime();

    /** Wall-clock milliseconds since the epoch; comparable with record timestamps. */
    long milliseconds();

    /** A monotonic clock for measuring intervals; never compared with wall-clock time. */
    long nanoseconds();

    /** Sleeps on the real clock, advances a mock clock. */
    void sleep(long ms);

    default long hiResClockMs() {
        return nanoseconds() / 1_000_000L;
    }
}
