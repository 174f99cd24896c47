package io.millrace.consumer.internals;

import io.millrace.common.TopicPartition;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A partition this consumer owns, from the rebalance (or seek) that took it to the one that gives
 * it up: which stream's queue its chunks go to, where its fetcher reads next, and the consumed
 * offset, the next offset to hand to the application, which is what a commit writes.
 *
 * <p>Revoking closes the hand-over race: the stream iterator advances the consumed offset with a
 * compare-and-set, and {@link #revoke()} swaps in {@link #REVOKED} and returns the last consumed
 * offset. So a record is either counted in what the rebalance commits or never handed out, and the
 * next owner starts exactly after the last record this consumer delivered. Chunks of a revoked
 * partition still queued are dropped by the iterator. Thread-safe.
 */
public final class OwnedPartition {

    static final long REVOKED = Long.MIN_VALUE;

    private final TopicPartition tp;
    private final String threadId;
    private final BlockingQueue<FetchedChunk> queue;
    private final AtomicLong consumed;
    private volatile long fetchOffset;
    private volatile long committed = -1;

    public OwnedPartition(TopicPartition tp, String threadId, BlockingQueue<FetchedChunk> queue, long startOffset) {
        this.tp = tp;
        this.threadId = threadId;
        this.queue = queue;
        this.consumed = new AtomicLong(startOffset);
        this.fetchOffset = startOffset;
    }

    public TopicPartition tp() {
        return tp;
    }

    public String threadId() {
        return threadId;
    }

    public BlockingQueue<FetchedChunk> queue() {
        return queue;
    }

    /** Where the fetcher reads next; written by the fetcher thread only. */
    public long fetchOffset() {
        return fetchOffset;
    }

    public void fetchOffset(long offset) {
        fetchOffset = offset;
    }

    /** Counts the record before {@code nextOffset} as delivered; false if the partition was revoked meanwhile. */
    public boolean markConsumed(long nextOffset) {
        long current = consumed.get();
        return current != REVOKED && consumed.compareAndSet(current, nextOffset);
    }

    /** Resets the position after an out-of-range fetch: both where to fetch and what a commit writes. */
    public boolean resetTo(long offset) {
        long current = consumed.get();
        if (current == REVOKED || !consumed.compareAndSet(current, offset)) {
            return false;
        }
        fetchOffset = offset;
        return true;
    }

    /** The next offset to deliver, or -1 once revoked. */
    public long consumedOffset() {
        long current = consumed.get();
        return current == REVOKED ? -1 : current;
    }

    public boolean isRevoked() {
        return consumed.get() == REVOKED;
    }

    /** Stops delivery from this partition; returns the offset to commit, or -1 if already revoked. */
    public long revoke() {
        long last = consumed.getAndSet(REVOKED);
        return last == REVOKED ? -1 : last;
    }

    /** The offset last written to the offset registry, to skip commits that would change nothing. */
    public long committed() {
        return committed;
    }

    public void committed(long offset) {
        committed = offset;
    }

    @Override
    public String toString() {
        return tp + "@" + consumedOffset() + " (" + threadId + ")";
    }
}
