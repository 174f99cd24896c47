package io.millrace.hadoop.hive;

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
 * How one event hour's directory is named below {@code <data-root>/<topic>/hourly}. Hours are UTC, the
 * way the loader groups events by their header time. Partitions are always added with an explicit
 * location, so Hive reads either layout; only {@link #HIVE} also suits {@code MSCK REPAIR TABLE}.
 */
public enum HourLayout {

    /** {@code year=2026/month=03/day=07/hour=09}. */
    HIVE("year=%04d/month=%02d/day=%02d/hour=%02d", "year=(\\d{4})/month=(\\d{2})/day=(\\d{2})/hour=(\\d{2})"),

    /** {@code 2026/03/07/09}. */
    PLAIN("%04d/%02d/%02d/%02d", "(\\d{4})/(\\d{2})/(\\d{2})/(\\d{2})");

    private final String format;
    private final Pattern pattern;

    HourLayout(String format, String pattern) {
        this.format = format;
        this.pattern = Pattern.compile(pattern);
    }

    /** The directory of the hour that {@code hour} falls in, relative to the topic's {@code hourly} directory. */
    public String directory(Instant hour) {
        ZonedDateTime utc = startOfHour(hour);
        return String.format(Locale.ROOT, format, utc.getYear(), utc.getMonthValue(), utc.getDayOfMonth(), utc.getHour());
    }

    /** The hour whose directory is {@code relative} (as {@link #directory} names it), if it is one. */
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

    /** {@code time} truncated to its hour, in UTC. */
    static ZonedDateTime startOfHour(Instant time) {
        return time.truncatedTo(ChronoUnit.HOURS).atZone(ZoneOffset.UTC);
    }
}
