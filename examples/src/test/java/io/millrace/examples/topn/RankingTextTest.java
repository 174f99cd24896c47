package io.millrace.examples.topn;

import static org.junit.Assert.assertEquals;

import java.util.List;
import org.junit.Test;

/** Rankings read back as they were written, in the documented text layout. */
public class RankingTextTest {

    @Test
    public void aRankingIsItsWindowEndThenOneCountAndUrlPerLine() {
        UrlRanking ranking = new UrlRanking(1_700_000_300_000L,
                List.of(new UrlCount("/jobs/view?id=7", 412), new UrlCount("/home", 398)));
        String text = RankingText.encode(ranking);
        assertEquals("1700000300000\n412\t/jobs/view?id=7\n398\t/home\n", text);
        assertEquals(ranking, RankingText.decode(text));
    }

    @Test
    public void anEmptyRankingReadsBackEmpty() {
        UrlRanking empty = new UrlRanking(10_000, List.of());
        assertEquals(empty, RankingText.decode(RankingText.encode(empty)));
    }

    @Test(expected = IllegalArgumentException.class)
    public void aUrlWithALineBreakIsRefused() {
        RankingText.encode(new UrlRanking(10, List.of(new UrlCount("/a\n5\t/b", 1))));
    }
}
