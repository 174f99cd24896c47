package io.millrace.examples.topn;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Page views per URL over a sliding window, by event time. Views are counted in buckets one slide wide
 * ({@code [k * slide, (k + 1) * slide)}), so the count of a window is the sum of the buckets it covers and
 * sliding the window only drops whole buckets. A late event still lands in the bucket of its own time, and is
 * counted as long as that bucket has not been dropped.
 *
 * <p>This class is not thread-safe: each counting instance owns one.
 */
public final class RollingUrlCounter {

    private final long windowMs;
    private final long slideMs;
    private final NavigableMap<Long, Map<String, Long>> buckets = new TreeMap<>();
    /** The start of the oldest bucket still kept; earlier ones were dropped by {@link #slideTo}. */
    private long oldestKept = Long.MIN_VALUE;

    public RollingUrlCounter(Duration window, Duration slide) {
        this.windowMs = window.toMillis();
        this.slideMs = slide.toMillis();
        if (slideMs <= 0 || windowMs < slideMs || windowMs % slideMs != 0) {
            throw new IllegalArgumentException("the window (" + window + ") must be a whole number of slides ("
                    + slide + ")");
        }
    }

    /** Counts one view; returns false, counting nothing, when its bucket was already dropped. */
    public boolean add(String url, long eventTimeMs) {
        long bucket = bucketStart(eventTimeMs);
        if (bucket < oldestKept) {
            return false;
        }
        buckets.computeIfAbsent(bucket, b -> new HashMap<>()).merge(url, 1L, Long::sum);
        return true;
    }

    /**
     * The views per URL with an event time in {@code [windowEndMs - window, windowEndMs)}; window ends are
     * multiples of the slide, so a window covers whole buckets.
     */
    public Map<String, Long> countsOfWindowEndingAt(long windowEndMs) {
        Map<String, Long> counts = new HashMap<>();
        buckets.subMap(windowEndMs - windowMs, true, windowEndMs, false).values()
                .forEach(bucket -> bucket.forEach((url, n) -> counts.merge(url, n, Long::sum)));
        return counts;
    }

    /**
     * Drops the buckets no window ending at or after {@code windowEndMs} covers; views older than that are
     * from then on refused by {@link #add}.
     */
    public void slideTo(long windowEndMs) {
        oldestKept = Math.max(oldestKept, windowEndMs - windowMs);
        buckets.headMap(oldestKept, false).clear();
    }

    /** The end of the window that closes when the bucket of {@code eventTimeMs} is complete. */
    public long windowEndAfter(long eventTimeMs) {
        return bucketStart(eventTimeMs) + slideMs;
    }

    public long slideMs() {
        return slideMs;
    }

    private long bucketStart(long eventTimeMs) {
        return Math.floorDiv(eventTimeMs, slideMs) * slideMs;
    }
}
