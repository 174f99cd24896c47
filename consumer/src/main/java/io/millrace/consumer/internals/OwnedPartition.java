package io.millrace.consumer.internals;

import io.millrace.common.TopicPartition;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A partition this consumer owns, from the rebalance (or seek) that took it to the one that gives
 * it up: which stream's queue its chunks go to, where its fetcher reads next, and the consumed
 * offset: the offset after the last record the application has processed, which is what a commit
 * writes. A record handed out counts as processed only once the application comes back to its
 * stream for more ({@link PendingOffsets}).
 *
 * <p>Revoking closes the hand-over race: the stream advances the consumed offset with a
 * compare-and-set, and {@link #revoke()} swaps in {@link #REVOKED} and returns the last consumed
 * offset. So what the rebalance commits never covers a record the application has not finished,
 * and the next owner starts right after the last processed one: a record in the application's hands
 * during a hand-over is delivered again, at least once, never lost. Chunks of a revoked partition
 * still queued are dropped by the iterator. Thread-safe.
 */
public final class OwnedPartition {

    static final long REVOKED = Long.MIN_VALUE;

    private final TopicPartition tp;
    private final String threadId;
    private final BlockingQueue<FetchedChunk> queue;
    private final AtomicLong consumed;
    private volatile long fetchOffset;
    private volatile long committed = -1;
    private volatile long logEndOffset = -1;

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

    /** The raw position, {@link #REVOKED} included, for {@link #advance}'s compare-and-set. */
    long position() {
        return consumed.get();
    }

    /**
     * Moves the consumed offset from {@code before} to {@code next} once the records between them
     * are processed. Does nothing when the position moved meanwhile: revoked by a rebalance (the
     * next owner delivers those records again) or moved by a seek or an offset reset.
     */
    boolean advance(long before, long next) {
        return before != REVOKED && consumed.compareAndSet(before, next);
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

    /** The partition's end as the leader last reported it in a fetch answer (its high watermark); written by the fetcher. */
    public void logEndOffset(long offset) {
        logEndOffset = offset;
    }

    /**
     * How many records the partition holds past the consumed offset, as of the last fetch answer
     * (Kafka's {@code records-lag}); -1 before the first answer or once revoked.
     */
    public long lag() {
        long end = logEndOffset;
        long position = consumedOffset();
        return end < 0 || position < 0 ? -1 : Math.max(0, end - position);
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
