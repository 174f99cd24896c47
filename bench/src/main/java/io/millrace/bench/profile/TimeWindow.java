package io.millrace.bench.profile;

import java.time.Instant;
import java.util.Collection;

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
}
