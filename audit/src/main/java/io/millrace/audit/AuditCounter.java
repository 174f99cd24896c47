package io.millrace.audit;

import io.millrace.common.utils.Time;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one tier has counted, per topic and tumbling window of event time, not yet published. The
 * tier calls the {@code count...} methods from any thread as events pass (no lock, no allocation
 * for an event of the window before); the publisher {@link #drainDue drains} the windows that are
 * due: a window first at its end plus the lateness allowance, and after that whenever late events
 * were counted in it again, as a further delta. Events without a usable time and events that cannot
 * be decoded are counted in the window of their arrival, in fields of their own.
 *
 * <p>Windows that stay empty long after they were due are retired, and drained once more a cycle
 * later, so that a count racing with the retirement still lands in a delta. Thread-safe.
 */
public final class AuditCounter {

    private final long windowMs;
    private final long latenessMs;
    private final Time time;
    private final Map<String, TopicWindows> topics = new ConcurrentHashMap<>();
    private List<WindowCounts> retired = new ArrayList<>();   // the publisher's thread only

    public AuditCounter(long windowMs, long latenessMs, Time time) {
        if (windowMs <= 0 || latenessMs < 0) {
            throw new IllegalArgumentException("window " + windowMs + " ms, lateness " + latenessMs + " ms");
        }
        this.windowMs = windowMs;
        this.latenessMs = latenessMs;
        this.time = time;
    }

    /** An event of {@code topic} with time {@code eventTimeMs} passed this tier; its latency is now minus that time. */
    public void count(String topic, long eventTimeMs, long bytes) {
        window(topic, eventTimeMs).counted(bytes, time.milliseconds() - eventTimeMs);
    }

    /** An event without a usable time passed: counted in the window of now, never dropped from the books. */
    public void countWithoutTime(String topic, long bytes) {
        window(topic, time.milliseconds()).countedWithoutTime(bytes);
    }

    /** An event that could not be decoded passed: counted in the window of now. */
    public void countMalformed(String topic) {
        window(topic, time.milliseconds()).malformed();
    }

    /** An event this tier could not pass on (a send that failed for good), in its own window. */
    public void countFailed(String topic, long eventTimeMs) {
        window(topic, eventTimeMs).failed();
    }

    /**
     * Adds counts a tier held back until the data was committed ({@link UncommittedCounts}) to the window
     * holding {@code windowStart}, with the latencies measured as the events passed (moved out of
     * {@code latencies}, which may be null).
     */
    void add(String topic, long windowStart, HeldCounts counts, LatencyHistogram latencies) {
        WindowCounts window = window(topic, windowStart);
        window.add(counts);
        if (latencies != null) {
            window.addLatencies(latencies);
        }
    }

    /** The length of the windows, ms. */
    public long windowMs() {
        return windowMs;
    }

    /** The clock that places events without a time, and measures latencies. */
    Time time() {
        return time;
    }

    /** The counts of {@code topic}'s window holding {@code eventTimeMs}, made when there are none. */
    WindowCounts window(String topic, long eventTimeMs) {
        TopicWindows windows = topics.get(topic);
        if (windows == null) {
            windows = topics.computeIfAbsent(topic, TopicWindows::new);
        }
        return windows.of(eventTimeMs);
    }

    /**
     * The deltas to publish now: of every window that is due (or of every window, when
     * {@code everything}, as the counting client closes), skipping windows with nothing new.
     * One thread at a time (the publisher's).
     */
    public List<WindowDelta> drainDue(boolean everything) {
        long now = time.milliseconds();
        List<WindowDelta> deltas = new ArrayList<>();
        for (WindowCounts late : retired) {
            add(deltas, late.drain());
        }
        retired = new ArrayList<>();
        for (TopicWindows windows : topics.values()) {
            Iterator<WindowCounts> it = windows.all.values().iterator();
            while (it.hasNext()) {
                WindowCounts counts = it.next();
                if (!everything && now < counts.dueAtMs()) {
                    continue;
                }
                WindowDelta delta = counts.drain();
                add(deltas, delta);
                if (delta.isEmpty() && now >= counts.dueAtMs() + windowMs) {
                    counts.retire();
                    it.remove();   // quiet for a whole window after it was due; a late event makes a new one
                    retired.add(counts);
                }
            }
        }
        return deltas;
    }

    private static void add(List<WindowDelta> deltas, WindowDelta delta) {
        if (!delta.isEmpty()) {
            deltas.add(delta);
        }
    }

    /** Windows held in memory, for tests and metrics. */
    public int windowCount() {
        return topics.values().stream().mapToInt(w -> w.all.size()).sum();
    }

    /** One topic's windows, with the window of the last event kept at hand: most events fall in it. */
    private final class TopicWindows {
        final String topic;
        final Map<Long, WindowCounts> all = new ConcurrentHashMap<>();
        volatile WindowCounts last;

        TopicWindows(String topic) {
            this.topic = topic;
        }

        WindowCounts of(long eventTimeMs) {
            long start = Math.floorDiv(eventTimeMs, windowMs) * windowMs;
            WindowCounts cached = last;
            if (cached != null && cached.windowStart() == start && !cached.isRetired()) {
                return cached;
            }
            WindowCounts counts = all.computeIfAbsent(start,
                s -> new WindowCounts(topic, s, s + windowMs, s + windowMs + latenessMs));
            last = counts;
            return counts;
        }
    }
}
