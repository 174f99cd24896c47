package io.millrace.examples.topn;

/**
 * Which counting instance counts a URL: the URL's share of {@code instances}, the same in every instance and
 * every JVM ({@link String#hashCode()} is defined by the language, not by the JVM). This is the fields grouping
 * of the top-N: it makes each URL's count whole in one instance, which is what lets the total ranker merge only
 * the instances' top N.
 */
public final class UrlShare {

    private UrlShare() {
    }

    /** The instance, from 0 to {@code instances - 1}, that counts {@code url}. */
    public static int of(String url, int instances) {
        return Math.floorMod(url.hashCode(), instances);
    }
}
