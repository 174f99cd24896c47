package io.millrace.examples.topn;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/**
 * A counting instance counts only its share of URLs, ranks every window in order once the slowest partition has
 * passed it by the lateness, and all instances rank the same windows, whose merge is the whole count.
 */
public class PartialRankerTest {

    private static final Duration WINDOW = Duration.ofSeconds(30);
    private static final Duration SLIDE = Duration.ofSeconds(10);
    private static final Duration LATENESS = Duration.ofSeconds(5);

    private static PartialRanker ranker(int instance) {
        PartialRanker ranker = new PartialRanker(instance, 2, WINDOW, SLIDE, LATENESS, 3);
        ranker.assign(List.of(0, 1));
        return ranker;
    }

    /** The first {@code count} URLs /page/N that instance {@code instance} of two counts. */
    private static List<String> urlsOf(int instance, int count) {
        List<String> urls = new ArrayList<>();
        for (int n = 0; urls.size() < count; n++) {
            if (UrlShare.of("/page/" + n, 2) == instance) {
                urls.add("/page/" + n);
            }
        }
        return urls;
    }

    @Test
    public void nothingIsRankedUntilEveryPartitionHasShownAView() {
        PartialRanker ranker = ranker(0);
        ranker.observe(0, "/a", 100_000);
        assertEquals(List.of(), ranker.rankClosedWindows());
    }

    @Test
    public void anInstanceRanksOnlyItsShareOfUrlsWindowByWindowIncludingEmptyOnes() {
        String mine = urlsOf(0, 1).get(0);
        String theirs = urlsOf(1, 1).get(0);
        PartialRanker ranker = ranker(0);
        ranker.observe(0, mine, 12_000);
        ranker.observe(1, theirs, 13_000);
        ranker.observe(0, mine, 48_000);
        ranker.observe(1, theirs, 46_000);   // watermark 46 s - 5 s: windows ending at 20, 30 and 40 s close
        List<UrlRanking> ranked = ranker.rankClosedWindows();
        assertEquals(List.of(
            new UrlRanking(20_000, List.of(new UrlCount(mine, 1))),
            new UrlRanking(30_000, List.of(new UrlCount(mine, 1))),
            new UrlRanking(40_000, List.of(new UrlCount(mine, 1)))), ranked);
        assertEquals(List.of(), ranker.rankClosedWindows());
        ranker.observe(0, theirs, 90_000);
        ranker.observe(1, theirs, 95_000);   // 50 to 80 s close; the one ending at 80 s holds none of mine
        assertEquals(List.of(
            new UrlRanking(50_000, List.of(new UrlCount(mine, 1))),
            new UrlRanking(60_000, List.of(new UrlCount(mine, 1))),
            new UrlRanking(70_000, List.of(new UrlCount(mine, 1))),
            new UrlRanking(80_000, List.of())), ranker.rankClosedWindows());
    }

    @Test
    public void aViewOfAWindowAlreadyRankedIsLateAndCountsOnlyInLaterWindows() {
        String mine = urlsOf(0, 1).get(0);
        PartialRanker ranker = ranker(0);
        ranker.observe(0, mine, 10_000);
        ranker.observe(0, mine, 36_000);
        ranker.observe(1, mine, 36_000);
        assertEquals(List.of(20_000L, 30_000L), ends(ranker.rankClosedWindows()));
        assertEquals(0, ranker.lateViews());
        ranker.observe(0, mine, 25_000);   // the window ending at 30 s, which holds it, was ranked: late
        assertEquals(1, ranker.lateViews());
        ranker.observe(0, mine, 50_000);
        ranker.observe(1, mine, 50_000);
        List<UrlRanking> ranked = ranker.rankClosedWindows();
        assertEquals(new UrlRanking(40_000, List.of(new UrlCount(mine, 4))), ranked.get(0));
    }

    @Test
    public void twoInstancesRankTheSameWindowsAndTheirMergeIsTheWholeCount() {
        List<String> urls = new ArrayList<>(urlsOf(0, 3));
        urls.addAll(urlsOf(1, 3));
        PartialRanker one = ranker(0);
        PartialRanker two = ranker(1);
        for (int i = 0; i < 600; i++) {
            String url = urls.get((i * i) % urls.size());
            long time = 1_000L * i / 4;
            one.observe(i % 2, url, time);
            two.observe(i % 2, url, time);
        }
        List<UrlRanking> first = one.rankClosedWindows();
        List<UrlRanking> second = two.rankClosedWindows();
        assertEquals(ends(first), ends(second));
        assertTrue("windows closed: " + ends(first), first.size() > 10);
        for (int w = 0; w < first.size(); w++) {
            long end = first.get(w).windowEndMs();
            Map<String, Long> whole = new HashMap<>();
            for (int i = 0; i < 600; i++) {
                long time = 1_000L * i / 4;
                if (time >= end - WINDOW.toMillis() && time < end) {
                    whole.merge(urls.get((i * i) % urls.size()), 1L, Long::sum);
                }
            }
            assertEquals(UrlRanking.of(end, whole, 3), UrlRanking.merge(end, List.of(first.get(w), second.get(w)), 3));
        }
    }

    private static List<Long> ends(List<UrlRanking> rankings) {
        return rankings.stream().map(UrlRanking::windowEndMs).toList();
    }
}
