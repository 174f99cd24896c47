package io.millrace.audit.report;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Sums the audit entries and judges every window of every downstream tier against the producer tier.
 *
 * <p>Entries are deltas: the same id twice is counted once. For each topic and window, the producer
 * tier's count (per cluster, and in all) is what was sent. A downstream tier counted under a cluster
 * that has producers (the mirror's {@code live} and {@code offline} tiers, under their data centre) is
 * held against that cluster's producers; a tier under a cluster without producers (the loader, under
 * {@code offline}) against all producers of the topic. Every downstream tier that counted the topic in
 * any window is expected in every window: a tier with no record for a window where producers sent counts
 * 0 there (a mirror that missed the whole window). A window whose end plus the grace period has not
 * passed is pending, whatever its counts; a window with no traffic is not a failure.
 */
public final class Reconciliation {

    public static final String PRODUCER_TIER = "producer";

    /** How one tier stands in one window. */
    public enum Status { COMPLETE, INCOMPLETE, OVER, PENDING }

    /** One tier of one topic in one window. */
    public record Row(String topic, long windowStart, long windowEnd, String tier, String cluster, long expected,
                      long counted, Status status) {

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
        Set<String> seen = new HashSet<>();
        // topic -> window start -> "tier\u0000cluster" -> count
        Map<String, Map<Long, Map<String, Long>>> sums = new TreeMap<>();
        Map<String, Map<Long, Long>> windowEnds = new TreeMap<>();
        Map<String, Map<Long, Map<String, Long>>> producerHosts = new TreeMap<>();
        List<LostRow> lost = new ArrayList<>();
        long duplicates = 0;
        for (AuditEntry entry : entries) {
            if (!seen.add(entry.id())) {
                duplicates++;
                continue;
            }
            if (entry.lost() != null) {
                lost.add(new LostRow(entry.tier(), entry.cluster(), entry.topic(), entry.lost().partition(),
                    entry.lost().first(), entry.lost().last(), entry.lost().count()));
                continue;
            }
            AuditEntry.Window w = entry.window();
            long counted = w.count() + w.noTimeCount();
            sums.computeIfAbsent(entry.topic(), t -> new TreeMap<>()).computeIfAbsent(w.start(), s -> new TreeMap<>())
                .merge(entry.tier() + '\u0000' + entry.cluster(), counted, Long::sum);
            windowEnds.computeIfAbsent(entry.topic(), t -> new TreeMap<>()).put(w.start(), w.end());
            if (entry.tier().equals(PRODUCER_TIER)) {
                producerHosts.computeIfAbsent(entry.topic(), t -> new TreeMap<>()).computeIfAbsent(w.start(), s -> new TreeMap<>())
                    .merge(entry.host(), counted, Long::sum);
            }
        }
        List<Row> rows = new ArrayList<>();
        sums.forEach((topic, windows) -> {
            Set<String> downstream = new java.util.TreeSet<>();
            windows.values().forEach(tiers -> tiers.keySet().stream()
                .filter(k -> !k.startsWith(PRODUCER_TIER + '\u0000')).forEach(downstream::add));
            windows.forEach((start, tiers) ->
                judge(rows, topic, start, windowEnds.get(topic).get(start), tiers, downstream, nowMs, graceMs));
        });
        return new AuditReport(rows, lost, producerHosts, duplicates);
    }

    private static void judge(List<Row> rows, String topic, long start, long end, Map<String, Long> tiers,
                              Set<String> downstream, long nowMs, long graceMs) {
        Map<String, Long> produced = new TreeMap<>();
        long producedInAll = 0;
        for (Map.Entry<String, Long> tier : tiers.entrySet()) {
            String[] key = tier.getKey().split("\u0000", 2);
            if (key[0].equals(PRODUCER_TIER)) {
                produced.merge(key[1], tier.getValue(), Long::sum);
                producedInAll += tier.getValue();
            }
        }
        boolean pending = nowMs < end + graceMs;
        for (String tier : downstream) {
            String[] key = tier.split("\u0000", 2);
            long expected = produced.getOrDefault(key[1], producedInAll);
            long counted = tiers.getOrDefault(tier, 0L);
            if (expected == 0 && counted == 0) {
                continue;   // no traffic for this tier in this window
            }
            Status status = pending ? Status.PENDING
                : counted == expected ? Status.COMPLETE : counted < expected ? Status.INCOMPLETE : Status.OVER;
            rows.add(new Row(topic, start, end, key[0], key[1], expected, counted, status));
        }
    }
}
