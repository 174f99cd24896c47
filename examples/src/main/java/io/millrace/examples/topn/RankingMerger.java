package io.millrace.examples.topn;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The total ranker: collects the partial rankings the counting instances emit for each window end and, once
 * every instance has reported a window, merges them into the total top N. A window is completed at most
 * once, and an instance reporting again for it (a redelivered partial) replaces its earlier ranking.
 *
 * <p>This class is not thread-safe: the merger's one thread owns it.
 */
public final class RankingMerger {

    private final int instances;
    private final int topN;
    private final TreeMap<Long, Map<String, UrlRanking>> pending = new TreeMap<>();
    private long lastCompletedEnd = Long.MIN_VALUE;
    private UrlRanking lastTotal;

    public RankingMerger(int instances, int topN) {
        if (instances < 1 || topN < 1) {
            throw new IllegalArgumentException("instances and topN must be positive");
        }
        this.instances = instances;
        this.topN = topN;
    }

    /**
     * Takes one instance's partial ranking; answers the total ranking of its window when this partial was the
     * last one missing, and nothing otherwise (or when the window was already completed).
     */
    public Optional<UrlRanking> accept(String instanceId, UrlRanking partial) {
        long end = partial.windowEndMs();
        if (end <= lastCompletedEnd) {
            return Optional.empty();
        }
        Map<String, UrlRanking> reported = pending.computeIfAbsent(end, e -> new HashMap<>());
        reported.put(instanceId, partial);
        if (reported.size() < instances) {
            return Optional.empty();
        }
        // windows are completed in order of their end, so older incomplete ones can no longer be finished
        pending.headMap(end, true).clear();
        lastCompletedEnd = end;
        lastTotal = UrlRanking.merge(end, List.copyOf(reported.values()), topN);
        return Optional.of(lastTotal);
    }

    /** True when {@code total} ranks other URLs or counts than the total before it, so it is worth printing. */
    public static boolean changed(UrlRanking previous, UrlRanking total) {
        return previous == null || !previous.entries().equals(total.entries());
    }

    /** The latest total ranking, or null before the first window completed. */
    public UrlRanking lastTotal() {
        return lastTotal;
    }
}
