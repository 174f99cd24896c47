package io.millrace.testkit;

import io.millrace.common.utils.Time;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link Time} that only moves when told: {@link #sleep} and {@link #advance} move both clocks.
 * Thread-safe.
 */
public final class MockTime implements Time {

    private final AtomicLong millis;
    private final AtomicLong nanos;

    public MockTime() {
        this(1_700_000_000_000L);
    }

    public MockTime(long startMs) {
        this.millis = new AtomicLong(startMs);
        this.nanos = new AtomicLong(startMs * 1_000_000L);
    }

    @Override
    public long milliseconds() {
        return millis.get();
    }

    @Override
    public long nanoseconds() {
        return nanos.get();
    }

    @Override
    public void sleep(long ms) {
        advance(ms);
    }

    public void advance(long ms) {
        millis.addAndGet(ms);
        nanos.addAndGet(ms * 1_000_000L);
    }
}
