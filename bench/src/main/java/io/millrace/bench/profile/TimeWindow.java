package io.millrace.bench.profile;

import java.time.Instant;
import java.util.Collection;
import java.util.Map;

/** A stretch of wall-clock time, both ends included: one scenario's run, say. */
public record TimeWindow(Instant start, Instant end) {

    public TimeWindow {
        if (end.isBefore(start)) {
            throw new IllegalArgumentException("window ends (" + end + ") before it starts (" + start + ")");
        }
    }

    public boolean contains(Instant t) {
        return !t.isBefore(start) && !t.isAfter(end);
    }

    /** True if any of {@code windows} contains {@code t}; an empty collection contains every instant. */
    public static boolean anyContains(Collection<TimeWindow> windows, Instant t) {
        if (windows.isEmpty()) {
            return true;
        }
        for (TimeWindow w : windows) {
            if (w.contains(t)) {
                return true;
            }
        }
        return false;
    }

    /** The first key one of whose windows contains {@code t} (a key with no windows contains every instant), or null. */
    public static <K> K firstKeyContaining(Map<K, ? extends Collection<TimeWindow>> windowsByKey, Instant t) {
        for (Map.Entry<K, ? extends Collection<TimeWindow>> e : windowsByKey.entrySet()) {
            if (anyContains(e.getValue(), t)) {
                return e.getKey();
            }
        }
        return null;
    }
}
