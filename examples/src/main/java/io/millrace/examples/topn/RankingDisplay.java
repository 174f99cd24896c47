package io.millrace.examples.topn;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/** A total ranking as the terminal shows it: the window in UTC, then rank, views and URL, one line each. */
public final class RankingDisplay {

    private static final DateTimeFormatter DAY_AND_TIME =
        DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT)
        .withZone(ZoneOffset.UTC);

    private RankingDisplay() {
    }

    /**
     * For example
     *
     * <pre>
     * page views 2026-11-26 19:25:00 to 19:30:00 UTC
     *    1     412  /jobs/view?id=7
     *    2     398  /home
     * </pre>
     */
    public static String format(UrlRanking ranking, Duration window) {
        Instant end = Instant.ofEpochMilli(ranking.windowEndMs());
        Instant start = end.minus(window);
        boolean sameDay = start.truncatedTo(ChronoUnit.DAYS)
            .equals(end.minusMillis(1).truncatedTo(ChronoUnit.DAYS));
        StringBuilder text = new StringBuilder("page views ").append(DAY_AND_TIME.format(start)).append(" to ")
            .append((sameDay ? TIME : DAY_AND_TIME).format(end)).append(" UTC\n");
        if (ranking.entries().isEmpty()) {
            text.append("  (none)\n");
        }
        int rank = 1;
        for (UrlCount entry : ranking.entries()) {
            text.append(String.format(Locale.ROOT, "  %3d %7d  %s\n", rank++, entry.count(), entry.url()));
        }
        return text.toString();
    }
}
