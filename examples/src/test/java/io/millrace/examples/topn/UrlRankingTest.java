package io.millrace.examples.topn;

import static org.junit.Assert.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.Test;

/**
 * Rankings keep the top N in a fixed order, and the merge of per-instance rankings equals a brute-force
 * count when each URL is counted by one instance.
 */
public class UrlRankingTest {

    @Test
    public void aRankingKeepsTheMostViewedWithTiesByUrl() {
        UrlRanking ranking = UrlRanking.of(10, Map.of("/c", 5L, "/b", 7L, "/a", 5L, "/d", 1L), 3);
        assertEquals(List.of(new UrlCount("/b", 7), new UrlCount("/a", 5), new UrlCount("/c", 5)),
                ranking.entries());
    }

    @Test
    public void mergingAddsTheCountsOfAUrlAndRanksAgain() {
        UrlRanking one = new UrlRanking(10, List.of(new UrlCount("/a", 4), new UrlCount("/b", 3)));
        UrlRanking two = new UrlRanking(10, List.of(new UrlCount("/c", 6), new UrlCount("/a", 1)));
        assertEquals(List.of(new UrlCount("/c", 6), new UrlCount("/a", 5)),
                UrlRanking.merge(10, List.of(one, two), 2).entries());
    }

    @Test(expected = IllegalArgumentException.class)
    public void rankingsOfDifferentWindowsDoNotMerge() {
        UrlRanking.merge(10, List.of(new UrlRanking(20, List.of())), 3);
    }

    @Test
    public void mergedTopNOfInstancesPartitionedByUrlEqualsABruteForceCount() {
        Duration window = Duration.ofMinutes(5);
        Duration slide = Duration.ofSeconds(10);
        int instances = 3;
        int topN = 5;
        List<RollingUrlCounter> counters = new ArrayList<>();
        for (int i = 0; i < instances; i++) {
            counters.add(new RollingUrlCounter(window, slide));
        }
        Random random = new Random(42);
        List<long[]> events = new ArrayList<>();   // {url number, event time}
        for (int n = 0; n < 20_000; n++) {
            long url = (long) Math.floor(Math.pow(random.nextDouble(), 3) * 200);   // a skewed popularity
            long time = random.nextInt(20 * 60_000);
            events.add(new long[] {url, time});
            counters.get((int) (url % instances)).add("/page/" + url, time);
        }
        for (long windowEnd = 60_000; windowEnd <= 20 * 60_000; windowEnd += 70_000) {
            List<UrlRanking> partials = new ArrayList<>();
            for (RollingUrlCounter counter : counters) {
                partials.add(UrlRanking.of(windowEnd, counter.countsOfWindowEndingAt(windowEnd), topN));
            }
            assertEquals(bruteForce(events, windowEnd, window.toMillis(), topN),
                    UrlRanking.merge(windowEnd, partials, topN));
        }
    }

    private static UrlRanking bruteForce(List<long[]> events, long windowEnd, long windowMs, int topN) {
        Map<String, Long> counts = new HashMap<>();
        for (long[] event : events) {
            if (event[1] >= windowEnd - windowMs && event[1] < windowEnd) {
                counts.merge("/page/" + event[0], 1L, Long::sum);
            }
        }
        List<UrlCount> all = new ArrayList<>();
        counts.forEach((url, count) -> all.add(new UrlCount(url, count)));
        all.sort((x, y) -> x.count() != y.count() ? Long.compare(y.count(), x.count()) : x.url().compareTo(y.url()));
        return new UrlRanking(windowEnd, all.subList(0, Math.min(topN, all.size())));
    }
}
