package io.millrace.bench.compare;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * How long this JVM's threads could not run when they asked to: a thread that sleeps a millisecond
 * at a time and notes how much later than that it woke. A collection, a safepoint for the JIT or a
 * CPU taken by another process all show up here, so a latency tail of that length is not the
 * clients' or the broker's doing.
 */
final class Hiccups implements AutoCloseable {

    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final AtomicLong longestNanos = new AtomicLong();
    private final Thread meter;
    private volatile boolean running = true;

    private Hiccups() {
        meter = new Thread(this::measure, "e2e-hiccup-meter");
        meter.setDaemon(true);
    }

    static Hiccups start() {
        Hiccups h = new Hiccups();
        h.meter.start();
        return h;
    }

    private void measure() {
        while (running) {
            long before = System.nanoTime();
            LockSupport.parkNanos(TICK_NANOS);
            long late = System.nanoTime() - before - TICK_NANOS;
            longestNanos.accumulateAndGet(late, Math::max);
        }
    }

    double longestMillis() {
        return longestNanos.get() / 1e6;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        meter.join(1_000);
    }
}
