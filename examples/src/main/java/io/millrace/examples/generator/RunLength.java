package io.millrace.examples.generator;

import java.time.Duration;
import java.util.Locale;

/**
 * How long a run lasts: a number of events, or a time. How far through it a run is decides where in the
 * time spread the next event's time falls, so both kinds of run sweep the spread from its start to now.
 *
 * @param events   the events to send, when the run is counted in events; 0 otherwise
 * @param duration how long to send, when the run is timed; null otherwise
 */
public record RunLength(long events, Duration duration) {

    public RunLength {
        if ((duration == null) == (events <= 0)) {
            throw new IllegalArgumentException("A run lasts a positive number of events or a positive duration, not both");
        }
        if (duration != null && (duration.isZero() || duration.isNegative())) {
            throw new IllegalArgumentException("A run's duration must be positive, not " + duration);
        }
    }

    public static RunLength ofEvents(long events) {
        if (events <= 0) {
            throw new IllegalArgumentException("The number of events must be positive, not " + events);
        }
        return new RunLength(events, null);
    }

    public static RunLength ofDuration(Duration duration) {
        return new RunLength(0, duration);
    }

    /** Whether a run that sent {@code sent} events in {@code elapsedNanos} is over. */
    boolean isOver(long sent, long elapsedNanos) {
        return duration == null ? sent >= events : elapsedNanos >= duration.toNanos();
    }

    /** How far through the run it is, from 0 to 1. */
    double progress(long sent, long elapsedNanos) {
        double done = duration == null ? (double) sent / events : (double) elapsedNanos / duration.toNanos();
        return Math.min(1.0, Math.max(0.0, done));
    }

    @Override
    public String toString() {
        return duration == null ? String.format(Locale.ROOT, "%,d events", events) : "events for " + duration;
    }
}
