package io.millrace.examples.topn;

import java.util.Comparator;

/** How many page views one URL had in one window. */
public record UrlCount(String url, long count) {

    /**
     * Most views first; equal counts by URL, so that every instance and the merger break ties the same way
     * and a ranking does not depend on the order its counts arrived in.
     */
    public static final Comparator<UrlCount> RANK_ORDER =
            Comparator.comparingLong(UrlCount::count).reversed().thenComparing(UrlCount::url);
}
