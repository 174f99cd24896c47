package io.millrace.examples.topn;

import static org.junit.Assert.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.Test;

/** A total ranking on the terminal: its window in UTC, then rank, views and URL. */
public class RankingDisplayTest {

    @Test
    public void aRankingShowsItsWindowThenOneLinePerUrl() {
        long end = Instant.parse("2026-11-26T19:30:00Z").toEpochMilli();
        UrlRanking ranking = new UrlRanking(end, List.of(new UrlCount("/jobs/view?id=7", 412), new UrlCount("/home", 98)));
        assertEquals(String.join("\n",
            "page views 2026-11-26 19:25:00 to 19:30:00 UTC",
            "    1     412  /jobs/view?id=7",
            "    2      98  /home",
            ""), RankingDisplay.format(ranking, Duration.ofMinutes(5)));
    }

    @Test
    public void aWindowOverMidnightShowsBothDaysAndAnEmptyOneSaysSo() {
        long end = Instant.parse("2026-11-27T00:02:00Z").toEpochMilli();
        assertEquals("page views 2026-11-26 23:57:00 to 2026-11-27 00:02:00 UTC\n  (none)\n",
            RankingDisplay.format(new UrlRanking(end, List.of()), Duration.ofMinutes(5)));
    }
}
