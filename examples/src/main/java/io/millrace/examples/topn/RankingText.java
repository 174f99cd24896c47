package io.millrace.examples.topn;

import java.util.ArrayList;
import java.util.List;

/**
 * The value of a record on the rankings topics: UTF-8 text a person can read with the console consumer,
 * the window's end (epoch ms) on the first line, then one {@code count<TAB>url} line per entry in rank
 * order, for example
 *
 * <pre>
 * 1700000300000
 * 412	/jobs/view?id=7
 * 398	/home
 * </pre>
 *
 * Text rather than an Avro record keeps the rankings readable without the schema registry. A URL's path and
 * query never hold a raw tab or line break (HTTP percent-encodes them), which is what makes the format
 * unambiguous; such a URL is refused rather than written in a way that would read back differently.
 */
public final class RankingText {

    private RankingText() {
    }

    public static String encode(UrlRanking ranking) {
        StringBuilder text = new StringBuilder().append(ranking.windowEndMs()).append('\n');
        for (UrlCount entry : ranking.entries()) {
            if (entry.url().indexOf('\n') >= 0 || entry.url().indexOf('\t') >= 0) {
                throw new IllegalArgumentException("a URL with a tab or line break: " + entry.url());
            }
            text.append(entry.count()).append('\t').append(entry.url()).append('\n');
        }
        return text.toString();
    }

    public static UrlRanking decode(String text) {
        String[] lines = text.split("\n");
        List<UrlCount> entries = new ArrayList<>(lines.length - 1);
        for (int i = 1; i < lines.length; i++) {
            int tab = lines[i].indexOf('\t');
            if (tab < 0) {
                throw new IllegalArgumentException("not a count<TAB>url line: " + lines[i]);
            }
            entries.add(new UrlCount(lines[i].substring(tab + 1), Long.parseLong(lines[i].substring(0, tab))));
        }
        return new UrlRanking(Long.parseLong(lines[0]), entries);
    }
}
