package io.millrace.hadoop.load;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;

/**
 * Where a topic's events of one hour (UTC) go under the data root: {@code <topic>/hourly/yyyy/MM/dd/HH}
 * or, Hive style, {@code <topic>/hourly/year=yyyy/month=MM/day=dd/hour=HH} (the Hive tables' partition
 * columns year, month, day, hour). Hours are labelled {@code yyyy-MM-ddTHH} in manifests and summaries.
 */
public final class HourLayout {

    public static final long HOUR_MS = 3_600_000L;

    private final boolean hive;

    public HourLayout(boolean hive) {
        this.hive = hive;
    }

    /** The start of the hour {@code timeMs} falls in. */
    public static long hourOf(long timeMs) {
        return Math.floorDiv(timeMs, HOUR_MS) * HOUR_MS;
    }

    /** The directory of {@code topic}'s hour starting at {@code hourMs}, relative to the data root. */
    public String directory(String topic, long hourMs) {
        ZonedDateTime t = utc(hourMs);
        String format = hive ? "%s/hourly/year=%04d/month=%02d/day=%02d/hour=%02d" : "%s/hourly/%04d/%02d/%02d/%02d";
        return String.format(format, topic, t.getYear(), t.getMonthValue(), t.getDayOfMonth(), t.getHour());
    }

    /** {@code yyyy-MM-ddTHH}, the hour's label in manifests and summaries. */
    public static String label(long hourMs) {
        ZonedDateTime t = utc(hourMs);
        return String.format("%04d-%02d-%02dT%02d", t.getYear(), t.getMonthValue(), t.getDayOfMonth(), t.getHour());
    }

    private static ZonedDateTime utc(long ms) {
        return Instant.ofEpochMilli(ms).atZone(ZoneOffset.UTC);
    }
}
