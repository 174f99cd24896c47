package io.millrace.broker.network;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts requests from the moment they are handed to the request queue until their completion
 * is done: the response written (or its write failed), or the request answered with no
 * response or a close. Shutdown drains it: {@link #startDraining()} refuses new requests, and
 * {@link #awaitDrained} waits for the count to reach zero.
 *
 * <p>Lock-free: the count and the draining flag share one int so that "not draining, so count
 * one more" is a single compare-and-set, and no request can slip in after draining began.
 */
final class InFlightRequests {

    private static final int DRAINING = 1 << 30;

    private final AtomicInteger state = new AtomicInteger();
    private final CountDownLatch drained = new CountDownLatch(1);

    /** Counts one more request, unless draining has begun. */
    boolean tryAcquire() {
        for (;;) {
            int s = state.get();
            if ((s & DRAINING) != 0) {
                return false;
            }
            if (state.compareAndSet(s, s + 1)) {
                return true;
            }
        }
    }

    void release() {
        if (state.decrementAndGet() == DRAINING) {
            drained.countDown();
        }
    }

    void startDraining() {
        if (state.updateAndGet(s -> s | DRAINING) == DRAINING) {
            drained.countDown();
        }
    }

    boolean isDraining() {
        return (state.get() & DRAINING) != 0;
    }

    int count() {
        return state.get() & ~DRAINING;
    }

    /** Waits, in real time, for the last request to finish after {@link #startDraining()}. */
    boolean awaitDrained(long timeout, TimeUnit unit) throws InterruptedException {
        return drained.await(timeout, unit);
    }
}
