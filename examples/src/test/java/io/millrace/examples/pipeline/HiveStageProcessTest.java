package io.millrace.examples.pipeline;

import static org.junit.Assert.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.Test;

/** What the demo says when Hive's counts are, or are not, the load's. */
public class HiveStageProcessTest {

    private static final Map<String, Long> LOADED = Map.of("page-views 2026-11-26T20", 1_200L,
        "page-views 2026-11-26T21", 800L, "searches 2026-11-26T21", 5L);

    @Test
    public void theSameCountsAgree() {
        assertEquals(List.of(), HiveStageProcess.compare(LOADED, Map.copyOf(LOADED)));
    }

    @Test
    public void aTopicShortOfEventsIsNamedWithItsTotalsThenItsHour() {
        Map<String, Long> counted = Map.of("page-views 2026-11-26T20", 1_199L, "page-views 2026-11-26T21", 800L,
            "searches 2026-11-26T21", 5L);
        assertEquals(List.of("topic page-views: Hive counted 1,999 events, the load wrote 2,000",
                "page-views 2026-11-26T20: Hive counted 1,199 events, the load wrote 1,200"),
            HiveStageProcess.compare(LOADED, counted));
    }

    /** Equal totals are not enough: events counted in the wrong hour are a mismatch too. */
    @Test
    public void eventsInAnotherHourAreAMismatchEvenWhenTheTotalsAgree() {
        Map<String, Long> counted = Map.of("page-views 2026-11-26T20", 1_000L, "page-views 2026-11-26T22", 1_000L,
            "searches 2026-11-26T21", 5L);
        assertEquals(List.of("page-views 2026-11-26T20: Hive counted 1,000 events, the load wrote 1,200",
                "page-views 2026-11-26T21: Hive counted 0 events, the load wrote 800",
                "page-views 2026-11-26T22: Hive counted 1,000 events, the load wrote 0"),
            HiveStageProcess.compare(LOADED, counted));
    }

    @Test
    public void aTopicHiveDidNotSeeIsAMismatch() {
        Map<String, Long> counted = Map.of("page-views 2026-11-26T20", 1_200L, "page-views 2026-11-26T21", 800L);
        assertEquals(List.of("topic searches: Hive counted 0 events, the load wrote 5",
                "searches 2026-11-26T21: Hive counted 0 events, the load wrote 5"),
            HiveStageProcess.compare(LOADED, counted));
    }
}
