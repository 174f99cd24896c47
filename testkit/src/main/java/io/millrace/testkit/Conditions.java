package io.millrace.testkit;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Waiting for a condition that another thread makes true, for state no latch can signal (a
 * queue's size, a gauge). It polls every millisecond up to a deadline and fails with a message;
 * unlike a fixed sleep it neither waits longer than needed nor passes by luck.
 */
public final class Conditions {

    public static final long DEFAULT_TIMEOUT_MS = 10_000;

    private Conditions() {
    }

    public static void waitUntil(BooleanSupplier condition, String what) {
        waitUntil(condition, DEFAULT_TIMEOUT_MS, what);
    }

    public static void waitUntil(BooleanSupplier condition, long timeoutMs, String what) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("Timed out after " + timeoutMs + " ms waiting until " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }
}
