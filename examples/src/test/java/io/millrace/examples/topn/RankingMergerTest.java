package io.millrace.examples.topn;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.Test;

/** The merger answers a window's total only when every instance has reported it, and only once. */
public class RankingMergerTest {

    private final RankingMerger merger = new RankingMerger(2, 2);

    private static UrlRanking ranking(long end, UrlCount... entries) {
        return new UrlRanking(end, List.of(entries));
    }

    @Test
    public void aWindowIsTotalledWhenTheLastInstanceReports() {
        assertEquals(Optional.empty(), merger.accept("one", ranking(10, new UrlCount("/a", 3))));
        assertEquals(Optional.empty(), merger.accept("one", ranking(10, new UrlCount("/a", 4))));  // redelivered
        Optional<UrlRanking> total = merger.accept("two", ranking(10, new UrlCount("/b", 5), new UrlCount("/c", 1)));
        assertEquals(Optional.of(ranking(10, new UrlCount("/b", 5), new UrlCount("/a", 4))), total);
        assertEquals(total.get(), merger.lastTotal());
    }

    @Test
    public void aCompletedWindowAndOlderOnesAreNotTotalledAgain() {
        merger.accept("one", ranking(10));
        merger.accept("one", ranking(20));
        assertTrue(merger.accept("two", ranking(20)).isPresent());
        assertEquals(Optional.empty(), merger.accept("two", ranking(10)));
        assertEquals(Optional.empty(), merger.accept("one", ranking(20)));
    }

    @Test
    public void aTotalIsWorthPrintingOnlyWhenItsEntriesChanged() {
        assertTrue(RankingMerger.changed(null, ranking(10)));
        assertFalse(RankingMerger.changed(ranking(10, new UrlCount("/a", 1)), ranking(20, new UrlCount("/a", 1))));
        assertTrue(RankingMerger.changed(ranking(10, new UrlCount("/a", 1)), ranking(20, new UrlCount("/a", 2))));
    }
}
