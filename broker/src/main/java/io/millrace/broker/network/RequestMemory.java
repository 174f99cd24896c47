package io.millrace.broker.network;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes every connection together may hold in requests, received or being received
 * ({@code queued.max.request.bytes}, Kafka's memory pool). A connection reserves a frame's size as
 * soon as it has read the frame's 4-byte header, and gives it back when the request is released.
 * When a reservation does not fit, the connection stops reading and waits to be called back on
 * the next release: memory stays bounded however many clients send large requests at once, and
 * nothing is dropped. Each frame fits on its own (the setting is at least
 * {@code socket.request.max.bytes}), so a waiting connection always gets in once the others finish.
 * Thread-safe.
 */
final class RequestMemory {

    private final long capacity;
    private final Set<Runnable> waiting = new LinkedHashSet<>();   // guarded by this
    private final AtomicLong used = new AtomicLong();

    /** @param capacity the bytes all requests may hold; zero or less: unbounded */
    RequestMemory(long capacity) {
        this.capacity = capacity;
    }

    /** Reserves {@code bytes}, or, when they do not fit, registers {@code onRelease} to run on the next release. */
    boolean reserveOrWait(long bytes, Runnable onRelease) {
        if (capacity <= 0) {
            used.addAndGet(bytes);   // unbounded (the default): counted for the gauge, no lock on the request path
            return true;
        }
        synchronized (this) {
            if (used.get() + bytes > capacity) {
                waiting.add(onRelease);
                return false;
            }
            used.addAndGet(bytes);
            return true;
        }
    }

    /** Gives back a reservation and wakes every waiting connection to try again. */
    void release(long bytes) {
        used.addAndGet(-bytes);
        if (capacity <= 0) {
            return;
        }
        List<Runnable> wake;
        synchronized (this) {
            if (waiting.isEmpty()) {
                return;
            }
            wake = new ArrayList<>(waiting);
            waiting.clear();
        }
        wake.forEach(Runnable::run);
    }

    /** A closed connection no longer waits. */
    synchronized void stopWaiting(Runnable onRelease) {
        waiting.remove(onRelease);
    }

    long used() {
        return used.get();
    }

    /** Bytes still free; {@link Long#MAX_VALUE} when unbounded. */
    long available() {
        return capacity > 0 ? capacity - used.get() : Long.MAX_VALUE;
    }

    synchronized int waitingConnections() {
        return waiting.size();
    }
}
