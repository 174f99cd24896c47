package io.millrace.broker.log;

import java.util.Iterator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The futures of {@link Log#awaitFlushed}, sorted by the offset each waits for, so that a flush
 * completes every waiter it covers in one pass over the head of the map (group commit).
 *
 * <p>Thread-safe: appenders register, the flusher completes, a failure or close fails them all,
 * concurrently. A waiter registered just after a completion pass is not lost: the caller
 * re-runs {@link #completeBelow} after registering.
 */
final class FlushWaiters {

    private final ConcurrentSkipListMap<Long, CompletableFuture<Void>> waiters = new ConcurrentSkipListMap<>();

    /**
     * A future for {@code offset}. Waiters of the same offset share one entry; each caller gets
     * its own copy so that completing or cancelling it cannot affect the others.
     */
    CompletableFuture<Void> register(long offset) {
        return waiters.computeIfAbsent(offset, o -> new CompletableFuture<>()).copy();
    }

    /** Completes every waiter for an offset below {@code flushedBelow}. */
    void completeBelow(long flushedBelow) {
        Iterator<CompletableFuture<Void>> covered = waiters.headMap(flushedBelow).values().iterator();
        while (covered.hasNext()) {
            CompletableFuture<Void> waiter = covered.next();
            covered.remove();
            waiter.complete(null);
        }
    }

    void failAll(RuntimeException cause) {
        failFrom(Long.MIN_VALUE, cause);
    }

    /** Fails every waiter for {@code offset} or later: a truncation removed those offsets' records. */
    void failFrom(long offset, RuntimeException cause) {
        for (Iterator<CompletableFuture<Void>> all = waiters.tailMap(offset).values().iterator(); all.hasNext(); ) {
            CompletableFuture<Void> waiter = all.next();
            all.remove();
            waiter.completeExceptionally(cause);
        }
    }
}
