package io.millrace.examples.topn;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The top URLs of the window that ends (exclusive) at {@code windowEndMs}, most viewed first.
 *
 * <p>A ranking of one counting instance is partial; {@link #merge} makes the total of several. Keeping only
 * the top N of each instance loses nothing as long as each URL is counted by a single instance: a URL in the
 * total top N then has its full count in its own instance, where it is also among the top N.
 */
public record UrlRanking(long windowEndMs, List<UrlCount> entries) {

    public UrlRanking {
        entries = List.copyOf(entries);
    }

    /** The {@code topN} largest of {@code counts}, in rank order. */
    public static UrlRanking of(long windowEndMs, Map<String, Long> counts, int topN) {
        List<UrlCount> all = new ArrayList<>(counts.size());
        counts.forEach((url, count) -> all.add(new UrlCount(url, count)));
        return new UrlRanking(windowEndMs, best(all, topN));
    }

    /**
     * The total top {@code topN} of partial rankings of one window. A URL found in several partials has its
     * counts added, which is right when the partials count disjoint events (a URL split across instances
     * would then still be undercounted if it fell out of one instance's top N).
     */
    public static UrlRanking merge(long windowEndMs, List<UrlRanking> partials, int topN) {
        Map<String, Long> counts = new HashMap<>();
        for (UrlRanking partial : partials) {
            if (partial.windowEndMs() != windowEndMs) {
                throw new IllegalArgumentException("ranking of window " + partial.windowEndMs()
                        + " merged into window " + windowEndMs);
            }
            partial.entries().forEach(e -> counts.merge(e.url(), e.count(), Long::sum));
        }
        return of(windowEndMs, counts, topN);
    }

    private static List<UrlCount> best(List<UrlCount> all, int topN) {
        all.sort(UrlCount.RANK_ORDER);
        return all.subList(0, Math.min(topN, all.size()));
    }
}
