package io.millrace.examples.topn;

import java.util.HashMap;
import java.util.Map;

/**
 * How far event time has got in all the partitions a counting instance reads: the least, over its
 * partitions, of the latest event time seen in each. A window may be ranked once the watermark has passed
 * its end by the allowed lateness; until then a slow partition can still bring views for it. Taking the
 * least rather than the latest is what keeps one busy partition from closing windows that a quiet one has
 * not reached.
 *
 * <p>This class is not thread-safe: each counting instance owns one.
 */
public final class EventTimeWatermark {

    private final long slideMs;
    private final long latenessMs;
    private final Map<Integer, Long> latestByPartition = new HashMap<>();

    public EventTimeWatermark(long slideMs, long latenessMs) {
        this.slideMs = slideMs;
        this.latenessMs = latenessMs;
    }

    /** Sets the partitions this instance owns now (after a rebalance); the others no longer hold it back. */
    public void assign(Iterable<Integer> partitions) {
        Map<Integer, Long> kept = new HashMap<>();
        for (int partition : partitions) {
            kept.put(partition, latestByPartition.getOrDefault(partition, Long.MIN_VALUE));
        }
        latestByPartition.clear();
        latestByPartition.putAll(kept);
    }

    public void observe(int partition, long eventTimeMs) {
        latestByPartition.merge(partition, eventTimeMs, Math::max);
    }

    /**
     * The end of the latest window that may be ranked (a multiple of the slide), or {@link Long#MIN_VALUE}
     * while some partition has shown no event yet.
     */
    public long closedWindowEnd() {
        long least = latestByPartition.values().stream().mapToLong(Long::longValue).min().orElse(Long.MIN_VALUE);
        if (least == Long.MIN_VALUE) {
            return Long.MIN_VALUE;
        }
        return Math.floorDiv(least - latenessMs, slideMs) * slideMs;
    }
}
