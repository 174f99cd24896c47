package io.millrace.hadoop;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a topic's events of one hour (UTC) go under the data root: {@code <topic>/hourly/yyyy/MM/dd/HH}
 * ({@link #HOURLY}) or {@code <topic>/hourly/year=yyyy/month=MM/day=dd/hour=HH} ({@link #HIVE}, named
 * after the Hive tables' partition columns, so that {@code MSCK REPAIR TABLE} finds them too). One
 * setting, {@value LoadConfig#LAYOUT_CONFIG}, picks the layout for the loader that writes the directories
 * and for the Hive partitions that point at them, so the two cannot disagree. Hours are labelled
 * {@code yyyy-MM-ddTHH} in manifests and summaries.
 */
public enum HourLayout {

    /** {@code 2026/03/07/09}. */
    HOURLY("hourly", "%04d/%02d/%02d/%02d", "(\\d{4})/(\\d{2})/(\\d{2})/(\\d{2})"),

    /** {@code year=2026/month=03/day=07/hour=09}. */
    HIVE("hive", "year=%04d/month=%02d/day=%02d/hour=%02d", "year=(\\d{4})/month=(\\d{2})/day=(\\d{2})/hour=(\\d{2})");

    public static final long HOUR_MS = 3_600_000L;

    private final String setting;
    private final String format;
    private final Pattern pattern;

    HourLayout(String setting, String format, String pattern) {
        this.setting = setting;
        this.format = format;
        this.pattern = Pattern.compile(pattern);
    }

    /** The layout whose {@value LoadConfig#LAYOUT_CONFIG} value is {@code setting}. */
    public static HourLayout named(String setting) {
        for (HourLayout layout : values()) {
            if (layout.setting.equals(setting)) {
                return layout;
            }
        }
        throw new IllegalArgumentException("No hour layout " + setting);
    }

    /** This layout's value of {@value LoadConfig#LAYOUT_CONFIG}. */
    public String setting() {
        return setting;
    }

    /** The start of the hour {@code timeMs} falls in. */
    public static long hourOf(long timeMs) {
        return Math.floorDiv(timeMs, HOUR_MS) * HOUR_MS;
    }

    /** The directory holding all of {@code topic}'s hours, relative to the data root: {@code <topic>/hourly}. */
    public static String topicDirectory(String topic) {
        return topic + "/hourly";
    }

    /** The directory of {@code topic}'s hour starting at {@code hourMs}, relative to the data root. */
    public String directory(String topic, long hourMs) {
        return topicDirectory(topic) + "/" + hourDirectory(Instant.ofEpochMilli(hourMs));
    }

    /** The directory of the hour {@code time} falls in, relative to the topic's {@link #topicDirectory}. */
    public String hourDirectory(Instant time) {
        ZonedDateTime utc = startOfHour(time);
        return String.format(Locale.ROOT, format, utc.getYear(), utc.getMonthValue(), utc.getDayOfMonth(), utc.getHour());
    }

    /** The hour whose directory is {@code relative} (as {@link #hourDirectory} names it), if it is one. */
    public Optional<Instant> parse(String relative) {
        Matcher m = pattern.matcher(relative);
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(ZonedDateTime.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)), 0, 0, 0, ZoneOffset.UTC).toInstant());
        } catch (DateTimeException e) {
            return Optional.empty();
        }
    }

    /** {@code yyyy-MM-ddTHH}, the hour's label in manifests and summaries. */
    public static String label(long hourMs) {
        ZonedDateTime t = startOfHour(Instant.ofEpochMilli(hourMs));
        return String.format(Locale.ROOT, "%04d-%02d-%02dT%02d", t.getYear(), t.getMonthValue(), t.getDayOfMonth(), t.getHour());
    }

    /** The start of the hour a {@link #label} names. */
    public static Instant fromLabel(String label) {
        return Instant.parse(label + ":00:00Z");
    }

    /** {@code time} truncated to its hour, in UTC. */
    public static ZonedDateTime startOfHour(Instant time) {
        return time.truncatedTo(ChronoUnit.HOURS).atZone(ZoneOffset.UTC);
    }
}
