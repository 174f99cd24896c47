package io.millrace.audit;

import io.millrace.common.TopicPartition;
import io.millrace.common.utils.Time;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a consuming tier counted and may not publish yet: per partition, the consumed records whose
 * offsets are not committed. A consumer that counted at once would publish records it then reads
 * again after a crash or a rebalance, counted twice; so the counts stay here until the offsets
 * covering them are committed, and only then move into the publisher's windows ({@link #release}),
 * from where they are published as the producer tier's are. Counts of records whose offsets are
 * never committed are dropped with their partition ({@link #discard}) or replaced when the records
 * come again.
 *
 * <p>Records with a time are counted in the window of that time, records without one
 * ({@code timestamp < 0}) and malformed ones in the window of their arrival, each in its own field.
 * Thread-safe: each partition has a lock, taken by its reading thread and by the committing one.
 */
public final class UncommittedCounts {

    private final AuditCounter into;
    private final Time time;
    private final long windowMs;
    private final Map<TopicPartition, PartitionBacklog> partitions = new ConcurrentHashMap<>();

    /** Counts that move, once committed, into {@code into}'s windows (a publisher's {@link AuditPublisher#counter()}). */
    public UncommittedCounts(AuditCounter into) {
        this.into = into;
        this.time = into.time();
        this.windowMs = into.windowMs();
    }

    /** The record at {@code offset} of {@code tp} was consumed; {@code timestamp} is negative when it has none. */
    public void count(TopicPartition tp, long offset, long timestamp, long bytes) {
        long now = time.milliseconds();
        PartitionBacklog backlog = backlog(tp);
        synchronized (backlog) {
            if (timestamp >= 0) {
                backlog.add(offset, windowOf(timestamp), PartitionBacklog.Kind.TIMED, bytes, now - timestamp);
            } else {
                backlog.add(offset, windowOf(now), PartitionBacklog.Kind.NO_TIME, bytes, 0);
            }
        }
    }

    /** The record at {@code offset} of {@code tp} was consumed but could not be decoded. */
    public void countMalformed(TopicPartition tp, long offset) {
        long now = time.milliseconds();
        PartitionBacklog backlog = backlog(tp);
        synchronized (backlog) {
            backlog.add(offset, windowOf(now), PartitionBacklog.Kind.MALFORMED, 0, 0);
        }
    }

    private long windowOf(long ms) {
        return Math.floorDiv(ms, windowMs) * windowMs;
    }

    private PartitionBacklog backlog(TopicPartition tp) {
        PartitionBacklog backlog = partitions.get(tp);
        return backlog != null ? backlog : partitions.computeIfAbsent(tp, p -> new PartitionBacklog(p.topic()));
    }

    /**
     * For a consumer that learns only that a commit succeeded, not its offsets: marks, per partition,
     * the offset after the last record counted so far, and keeps later records apart from it. A commit
     * that starts after this call covers at least those records, so once it succeeded each partition
     * may be {@link #release released} up to its mark.
     */
    public Map<TopicPartition, Long> seal() {
        Map<TopicPartition, Long> marks = new HashMap<>();
        partitions.forEach((tp, backlog) -> {
            long mark;
            synchronized (backlog) {
                mark = backlog.seal();
            }
            if (mark >= 0) {
                marks.put(tp, mark);
            }
        });
        return marks;
    }

    /** {@code committedOffset} of {@code tp} is committed: the records below it are counted for good. */
    public void release(TopicPartition tp, long committedOffset) {
        PartitionBacklog backlog = partitions.get(tp);
        if (backlog != null) {
            synchronized (backlog) {
                backlog.releaseBelow(committedOffset, into);
            }
        }
    }

    /** Everything consumed from {@code released} was committed as the partitions were given up. */
    public void releaseAll(Collection<TopicPartition> released) {
        for (TopicPartition tp : released) {
            release(tp, Long.MAX_VALUE);
            partitions.remove(tp);
        }
    }

    /** The partitions were given up without a commit: their next reader counts the records again. */
    public void discard(Collection<TopicPartition> given) {
        given.forEach(partitions::remove);
    }

    /** Drops the counts of every partition but {@code owned}: records of partitions lost without a commit. */
    public void retain(Set<TopicPartition> owned) {
        partitions.keySet().removeIf(tp -> !owned.contains(tp));
    }

    /** How many consumed records wait for a commit. */
    public long heldRecords() {
        long total = 0;
        for (PartitionBacklog backlog : partitions.values()) {
            synchronized (backlog) {
                total += backlog.records();
            }
        }
        return total;
    }
}
