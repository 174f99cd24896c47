package io.millrace.consumer;

import io.millrace.common.TopicPartition;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The responses that cover one partition's offset range {@code [start, end)}, fetched ahead: the
 * fetch after a response leaves from the connection's I/O thread as soon as that response has
 * arrived, not when the caller takes it, which saves a hand-off to the caller's thread and back per
 * response and lets the next one travel while the caller is still on an earlier one. At most
 * {@link #MAX_UNREAD} responses wait for the caller; beyond that the next fetch leaves when the
 * caller takes one. Behind {@link RangeIterator} and {@link RecordViews}. Not thread-safe: one
 * caller at a time.
 */
final class RangeFetches {

    /** Responses that may have arrived and wait for the caller before fetching ahead stops. */
    static final int MAX_UNREAD = 2;

    private final PartitionReader reader;
    private final TopicPartition tp;
    private final long endOffset;
    /** Whether responses fetched ahead are read into pooled buffers that the caller gives back. */
    private final boolean pooled;
    private long nextOffset;
    /** The fetch after the latest response taken, already on its way; null when none was started. */
    private CompletableFuture<Arrived> prefetched;
    /** Responses arrived and not yet taken, counted by the I/O thread and the caller both. */
    private final AtomicInteger unread = new AtomicInteger();

    /** A response that arrived, and the fetch after it if one was started on its arrival. */
    private record Arrived(FetchedBatches batches, CompletableFuture<Arrived> next) {
    }

    RangeFetches(PartitionReader reader, TopicPartition tp, long startOffset, long endOffset, boolean pooled) {
        this.reader = reader;
        this.pooled = pooled;
        this.tp = tp;
        this.nextOffset = startOffset;
        this.endOffset = endOffset;
    }

    TopicPartition partition() {
        return tp;
    }

    long endOffset() {
        return endOffset;
    }

    /** Whether offsets of the range are left to fetch. */
    boolean hasMore() {
        return nextOffset < endOffset;
    }

    /**
     * The next response of the range, from {@link #hasMore() the first offset not yet fetched}: an
     * empty one when the partition has nothing there yet (the fetch waited fetch.max.wait.ms).
     * Throws what {@link PartitionReader#fetch} throws. When this range is pooled, the caller calls
     * {@link FetchedBatches#release()} on each response once it is past it.
     */
    FetchedBatches next() {
        Arrived arrived = prefetched == null ? null : prefetched.join();
        prefetched = null;
        FetchedBatches fetched;
        if (arrived == null || arrived.batches() == null) {
            fetched = reader.fetch(tp, nextOffset);
        } else {
            unread.decrementAndGet();
            fetched = arrived.batches();
            prefetched = arrived.next();
        }
        long fetchedUpTo = fetched.nextOffset();
        if (prefetched == null && continues(fetched, nextOffset)) {
            prefetched = fetchAhead(fetchedUpTo);
        }
        nextOffset = Math.min(endOffset, fetchedUpTo);
        return fetched;
    }

    /** Whether the range goes on after {@code fetched}, a response from {@code offset} that moved forward. */
    private boolean continues(FetchedBatches fetched, long offset) {
        long fetchedUpTo = fetched.nextOffset();
        return fetchedUpTo > offset && fetchedUpTo < endOffset;
    }

    /** The fetch from {@code offset}, which on arrival starts the one after it while few responses wait. */
    private CompletableFuture<Arrived> fetchAhead(long offset) {
        return reader.prefetch(tp, offset, pooled).thenApply(batches -> {
            if (batches == null) {
                return new Arrived(null, null);   // the caller fetches again, and reports what went wrong
            }
            boolean room = unread.incrementAndGet() < MAX_UNREAD;
            return new Arrived(batches, room && continues(batches, offset) ? fetchAhead(batches.nextOffset()) : null);
        });
    }
}
