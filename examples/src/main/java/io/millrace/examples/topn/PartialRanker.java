package io.millrace.examples.topn;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What one counting instance does with the page views it reads, apart from reading and publishing them: it
 * watches event time advance in every partition, counts the views of its share of URLs ({@link UrlShare}), and
 * ranks each window once the watermark has passed its end by the allowed lateness. Every instance reads every
 * partition and sees every view, so all of them agree on event time; only the URLs they count differ.
 *
 * <p>Windows are ranked in order, one per slide, from the one that ends right after the first view seen (so
 * every instance ranks the same windows) to the latest closed one, empty ones included, since the total ranker
 * waits for every instance's ranking of a window. A view whose window was ranked already is late: it is counted
 * in the later windows that still cover it, or in none once its bucket was dropped.
 *
 * <p>This class is not thread-safe: the instance's reading thread owns it.
 */
public final class PartialRanker {

    private final int instance;
    private final int instances;
    private final int topN;
    private final RollingUrlCounter counter;
    private final EventTimeWatermark watermark;
    private long earliest = Long.MAX_VALUE;
    private long lastRankedEnd = Long.MIN_VALUE;
    private long lateViews;

    public PartialRanker(int instance, int instances, Duration window, Duration slide, Duration lateness, int topN) {
        if (instance < 0 || instance >= instances) {
            throw new IllegalArgumentException("instance " + instance + " of " + instances);
        }
        this.instance = instance;
        this.instances = instances;
        this.topN = topN;
        this.counter = new RollingUrlCounter(window, slide);
        this.watermark = new EventTimeWatermark(slide.toMillis(), lateness.toMillis());
    }

    /** The partitions read now; each must show a view before a window can close. */
    public void assign(Iterable<Integer> partitions) {
        watermark.assign(partitions);
    }

    /** Takes one page view read from {@code partition}: event time for all, a count for this instance's URLs. */
    public void observe(int partition, String url, long eventTimeMs) {
        watermark.observe(partition, eventTimeMs);
        if (lastRankedEnd == Long.MIN_VALUE) {
            earliest = Math.min(earliest, eventTimeMs);
        }
        if (UrlShare.of(url, instances) != instance) {
            return;
        }
        if (eventTimeMs < lastRankedEnd) {
            lateViews++;
        }
        counter.add(url, eventTimeMs);
    }

    /** The rankings of the windows that closed since the last call, oldest first; often none. */
    public List<UrlRanking> rankClosedWindows() {
        long closed = watermark.closedWindowEnd();
        if (closed == Long.MIN_VALUE || earliest == Long.MAX_VALUE) {
            return List.of();
        }
        long from = lastRankedEnd == Long.MIN_VALUE ? counter.windowEndAfter(earliest) : lastRankedEnd + counter.slideMs();
        List<UrlRanking> ranked = new ArrayList<>();
        for (long end = from; end <= closed; end += counter.slideMs()) {
            ranked.add(UrlRanking.of(end, counter.countsOfWindowEndingAt(end), topN));
            lastRankedEnd = end;
        }
        if (!ranked.isEmpty()) {
            counter.slideTo(lastRankedEnd + counter.slideMs());
        }
        return ranked;
    }

    /** Views of this instance's URLs that came after a window they belong to had been ranked. */
    public long lateViews() {
        return lateViews;
    }
}
