package io.millrace.audit.report;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Sums the audit entries and judges every window of every downstream tier against the producer tier.
 *
 * <p>Entries are deltas: the same id twice is counted once. For each topic and window, the producer
 * tier's count (per cluster, and in all) is what was sent. A downstream tier counted under a cluster
 * where the topic has producers (the mirror's {@code live} and {@code offline} tiers, under their data
 * centre) is held against that cluster's producers, in every window, also one where that cluster
 * produced nothing; a tier under a cluster without producers (the loader, under {@code offline}) against
 * all producers of the topic. Every downstream tier that counted the topic in
 * any window is expected in every window: a tier with no record for a window where producers sent counts
 * 0 there (a mirror that missed the whole window). A window whose end plus the grace period has not
 * passed is pending, whatever its counts; a window with no traffic is not a failure.
 */
public final class Reconciliation {

    public static final String PRODUCER_TIER = "producer";

    /** How one tier stands in one window. */
    public enum Status { COMPLETE, INCOMPLETE, OVER, PENDING }

    /**
     * One tier of one topic in one window; {@code producers} are the counts per host of the producers it is
     * held against (its cluster's, or all of the topic's), for drill-down.
     */
    public record Row(String topic, long windowStart, long windowEnd, String tier, String cluster, long expected,
                      long counted, Status status, Map<String, Long> producers) {

        public long missing() {
            return Math.max(0, expected - counted);
        }
    }

    /** A lost range as the report names it. */
    public record LostRow(String tier, String cluster, String topic, int partition, long first, long last, long count) {
    }

    private Reconciliation() {
    }

    /** The rows of every judged (or pending) window, and every lost range, from {@code entries}. */
    public static AuditReport reconcile(Collection<AuditEntry> entries, long nowMs, long graceMs) {
        Tally tally = new Tally();
        entries.forEach(tally::add);
        List<Row> rows = new ArrayList<>();
        new TreeMap<>(tally.sums).forEach((topic, windows) -> {
            Set<String> downstream = new TreeSet<>();
            windows.values().forEach(tiers -> tiers.keySet().stream()
                .filter(k -> !k.startsWith(PRODUCER_TIER + '\u0000')).forEach(downstream::add));
            Map<Long, Map<String, Map<String, Long>>> hosts = tally.clusterHosts.getOrDefault(topic, Map.of());
            Set<String> producerClusters = new TreeSet<>();
            hosts.values().forEach(byCluster -> producerClusters.addAll(byCluster.keySet()));
            new TreeMap<>(windows).forEach((start, tiers) -> {
                Producers producers = new Producers(producerClusters, hosts.getOrDefault(start, Map.of()),
                    tally.producerHosts.getOrDefault(topic, Map.of()).getOrDefault(start, Map.of()));
                judge(rows, topic, start, tally.windowEnds.get(topic).get(start), tiers, downstream, producers, nowMs,
                    graceMs);
            });
        });
        return new AuditReport(rows, tally.lost, tally.producerHosts, tally.duplicates);
    }

    /**
     * The entries summed: each id once, per topic, window and tier, and the producers' per host. Hash maps
     * where only the rows need an order, which {@link #reconcile} sorts once.
     */
    private static final class Tally {
        final Set<String> seen = new HashSet<>();
        /** topic -> window start -> "tier\u0000cluster" -> count. */
        final Map<String, Map<Long, Map<String, Long>>> sums = new HashMap<>();
        final Map<String, Map<Long, Long>> windowEnds = new HashMap<>();
        /** topic -> window start -> host -> count, of the producer tier. */
        final Map<String, Map<Long, Map<String, Long>>> producerHosts = new TreeMap<>();
        /** topic -> window start -> cluster -> host -> count, of the producer tier. */
        final Map<String, Map<Long, Map<String, Map<String, Long>>>> clusterHosts = new HashMap<>();
        final List<LostRow> lost = new ArrayList<>();
        long duplicates;

        void add(AuditEntry entry) {
            if (!seen.add(entry.id())) {
                duplicates++;
            } else if (entry.lost() != null) {
                lost.add(new LostRow(entry.tier(), entry.cluster(), entry.topic(), entry.lost().partition(),
                    entry.lost().first(), entry.lost().last(), entry.lost().count()));
            } else {
                addWindow(entry);
            }
        }

        private void addWindow(AuditEntry entry) {
            AuditEntry.Window w = entry.window();
            long counted = w.count() + w.noTimeCount();
            sums.computeIfAbsent(entry.topic(), t -> new HashMap<>()).computeIfAbsent(w.start(), s -> new HashMap<>())
                .merge(entry.tier() + '\u0000' + entry.cluster(), counted, Long::sum);
            windowEnds.computeIfAbsent(entry.topic(), t -> new HashMap<>()).put(w.start(), w.end());
            if (entry.tier().equals(PRODUCER_TIER)) {
                producerHosts.computeIfAbsent(entry.topic(), t -> new TreeMap<>()).computeIfAbsent(w.start(), s -> new TreeMap<>())
                    .merge(entry.host(), counted, Long::sum);
                clusterHosts.computeIfAbsent(entry.topic(), t -> new HashMap<>()).computeIfAbsent(w.start(), s -> new HashMap<>())
                    .computeIfAbsent(entry.cluster(), c -> new TreeMap<>()).merge(entry.host(), counted, Long::sum);
            }
        }
    }

    /**
     * The producers of one topic and window that a downstream tier is held against: a cluster where the
     * topic has producers in any window is held against its own (none, in a window where it produced
     * nothing), any other cluster against all of them.
     */
    private record Producers(Set<String> clusters, Map<String, Map<String, Long>> byCluster, Map<String, Long> all) {

        Map<String, Long> of(String cluster) {
            return clusters.contains(cluster) ? byCluster.getOrDefault(cluster, Map.of()) : all;
        }
    }

    private static void judge(List<Row> rows, String topic, long start, long end, Map<String, Long> tiers,
                              Set<String> downstream, Producers producers, long nowMs, long graceMs) {
        boolean pending = nowMs < end + graceMs;
        for (String tier : downstream) {
            String[] key = tier.split("\u0000", 2);
            Map<String, Long> against = producers.of(key[1]);
            long expected = against.values().stream().mapToLong(Long::longValue).sum();
            long counted = tiers.getOrDefault(tier, 0L);
            if (expected == 0 && counted == 0) {
                continue;   // no traffic for this tier in this window
            }
            Status status = pending ? Status.PENDING
                : counted == expected ? Status.COMPLETE : counted < expected ? Status.INCOMPLETE : Status.OVER;
            rows.add(new Row(topic, start, end, key[0], key[1], expected, counted, status, against));
        }
    }
}
