package io.millrace.broker.log;

import io.millrace.common.utils.Time;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What the logs of one broker share: the clock, the file opener, the failure channel, the flusher
 * thread and the scheduler for delayed deletes. {@link LogManager} builds one; a {@link Log}
 * opened on its own gets a private one ({@link #standalone}). Immutable and thread-safe.
 *
 * @param scheduler runs delayed segment deletes; null deletes at once (standalone logs)
 */
public record LogContext(Time time, LogFileOpener opener, LogDirFailureChannel failureChannel, LogFlusher flusher,
                         ScheduledExecutorService scheduler) {

    /** A context for one log opened outside a LogManager: its own flusher, immediate deletes. */
    public static LogContext standalone(Time time) {
        return new LogContext(time, LogFileOpener.DEFAULT, new LogDirFailureChannel(), new LogFlusher("millrace-log-flusher"),
            null);
    }

    /** Runs {@code task} after {@code delayMs}, or now when there is no scheduler (or it has shut down). */
    void schedule(Runnable task, long delayMs) {
        if (scheduler == null || delayMs <= 0) {
            task.run();
            return;
        }
        try {
            scheduler.schedule(task, delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            task.run();
        }
    }
}
