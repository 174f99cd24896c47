package io.millrace.examples.generator;

import java.io.PrintStream;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeSet;

/**
 * What a generator run sent and what the brokers acknowledged: per topic, per host, and per topic and hour
 * of the events' own time (the hour their header's time falls in, as the Hadoop loader files them and the
 * audit windows count them). A run succeeded when every event it sent was acknowledged. Immutable.
 *
 * @param byTopic            the counts of each topic, by its name
 * @param byHost             the counts of each simulated host, by its name
 * @param acknowledgedByHour per topic, the events acknowledged in each hour of event time (the hour's start,
 *                           in milliseconds since the epoch)
 * @param startMs            when the run started, wall-clock
 * @param elapsedMs          how long it took, the closing of the producers included
 * @param earliestEventMs    the earliest event time sent; {@link Long#MAX_VALUE} when nothing was sent
 * @param latestEventMs      the latest event time sent; {@link Long#MIN_VALUE} when nothing was sent
 * @param firstError         what made the first failed event fail; null when none failed
 */
public record GenerationSummary(Map<String, Counts> byTopic, Map<String, Counts> byHost,
                                Map<String, SortedMap<Long, Long>> acknowledgedByHour, long startMs, long elapsedMs,
                                long earliestEventMs, long latestEventMs, String firstError) {

    /** Printed per hour only up to this many hours; beyond, the range alone. */
    private static final int MAX_HOURS_PRINTED = 48;

    /**
     * @param sent         events handed to a producer, whether it took them or not
     * @param acknowledged events the broker acknowledged
     * @param failed       events that failed for good, or that the producer refused
     */
    public record Counts(long sent, long acknowledged, long failed) {
    }

    public GenerationSummary {
        byTopic = Map.copyOf(byTopic);
        byHost = Map.copyOf(byHost);
        acknowledgedByHour = Map.copyOf(acknowledgedByHour);
    }

    /** The counts of every topic together. */
    public Counts total() {
        long sent = 0;
        long acknowledged = 0;
        long failed = 0;
        for (Counts counts : byTopic.values()) {
            sent += counts.sent();
            acknowledged += counts.acknowledged();
            failed += counts.failed();
        }
        return new Counts(sent, acknowledged, failed);
    }

    /** Acknowledged events per second over the whole run. */
    public double acknowledgedPerSecond() {
        return total().acknowledged() * 1000.0 / Math.max(1, elapsedMs);
    }

    /** 0 when every event sent was acknowledged, 1 when not: the command's exit status. */
    public int exitStatus() {
        Counts total = total();
        return total.acknowledged() == total.sent() ? 0 : 1;
    }

    /** The summary as the command prints it: totals, a table per topic, per host and per hour, and the verdict. */
    public void print(PrintStream out) {
        Counts total = total();
        out.printf(Locale.ROOT, "Sent %,d events in %.1f s, %,d acknowledged (%,.0f events/s)%s%n", total.sent(),
            elapsedMs / 1000.0, total.acknowledged(), acknowledgedPerSecond(), eventTimes());
        printCounts(out, "topic", byTopic);
        printCounts(out, "host", byHost);
        printHours(out);
        if (exitStatus() == 0) {
            out.println("OK: every event sent was acknowledged");
        } else {
            out.printf(Locale.ROOT, "FAILED: %,d of %,d events were not acknowledged%s%n",
                total.sent() - total.acknowledged(), total.sent(),
                firstError == null ? "" : "; the first failed with: " + firstError);
        }
    }

    private String eventTimes() {
        if (earliestEventMs > latestEventMs) {
            return "";
        }
        return ", event times " + Instant.ofEpochMilli(earliestEventMs).truncatedTo(ChronoUnit.SECONDS) + " to "
            + Instant.ofEpochMilli(latestEventMs).truncatedTo(ChronoUnit.SECONDS);
    }

    private static void printCounts(PrintStream out, String what, Map<String, Counts> counts) {
        out.printf(Locale.ROOT, "  %-16s %12s %14s %10s%n", what, "sent", "acknowledged", "failed");
        new TreeSet<>(counts.keySet()).forEach(name -> out.printf(Locale.ROOT, "  %-16s %,12d %,14d %,10d%n", name,
            counts.get(name).sent(), counts.get(name).acknowledged(), counts.get(name).failed()));
    }

    private void printHours(PrintStream out) {
        TreeSet<Long> hours = new TreeSet<>();
        acknowledgedByHour.values().forEach(byHour -> hours.addAll(byHour.keySet()));
        if (hours.isEmpty()) {
            return;
        }
        if (hours.size() > MAX_HOURS_PRINTED) {
            out.printf(Locale.ROOT, "  acknowledged events fall in %d hours of event time, %s to %s%n", hours.size(),
                Instant.ofEpochMilli(hours.first()), Instant.ofEpochMilli(hours.last()));
            return;
        }
        TreeSet<String> topics = new TreeSet<>(acknowledgedByHour.keySet());
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "  %-22s", "event hour (UTC)"));
        topics.forEach(topic -> header.append(String.format(Locale.ROOT, " %14s", topic)));
        out.println(header);
        for (long hour : hours) {
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "  %-22s", Instant.ofEpochMilli(hour)));
            topics.forEach(topic -> row.append(String.format(Locale.ROOT, " %,14d",
                acknowledgedByHour.get(topic).getOrDefault(hour, 0L))));
            out.println(row);
        }
    }
}
