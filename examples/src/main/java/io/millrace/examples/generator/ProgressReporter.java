package io.millrace.examples.generator;

import io.millrace.common.utils.Time;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Prints a line every interval on a thread of its own, so that progress shows even while a send waits for
 * metadata or buffer space: the events sent, acknowledged and failed so far, and the rate at which they were
 * acknowledged since the last line. Closing stops it.
 */
final class ProgressReporter implements AutoCloseable {

    private final DeliveryTally tally;
    private final PrintStream out;
    private final Time time;
    private final ScheduledExecutorService thread;
    private long lastAcknowledged;   // read and written on the reporter's thread only
    private long lastNanos;

    private ProgressReporter(DeliveryTally tally, PrintStream out, Time time) {
        this.tally = tally;
        this.out = out;
        this.time = time;
        this.lastNanos = time.nanoseconds();
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread reporter = new Thread(r, "millrace-event-generator-progress");
            reporter.setDaemon(true);
            return reporter;
        });
    }

    static ProgressReporter start(DeliveryTally tally, PrintStream out, Duration interval, Time time) {
        ProgressReporter reporter = new ProgressReporter(tally, out, time);
        long ms = interval.toMillis();
        reporter.thread.scheduleAtFixedRate(reporter::report, ms, ms, TimeUnit.MILLISECONDS);
        return reporter;
    }

    private void report() {
        GenerationSummary.Counts total = tally.total();
        long nowNanos = time.nanoseconds();
        double seconds = Math.max(1e-9, (nowNanos - lastNanos) / 1e9);
        out.printf(Locale.ROOT, "%,d sent, %,d acknowledged, %,d failed, %,.0f events/s%n", total.sent(),
            total.acknowledged(), total.failed(), (total.acknowledged() - lastAcknowledged) / seconds);
        lastAcknowledged = total.acknowledged();
        lastNanos = nowNanos;
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
