package io.millrace.hadoop;

import static org.junit.Assert.assertEquals;

import io.millrace.audit.AuditConfig;
import io.millrace.audit.AuditPublisher;
import io.millrace.audit.report.AuditEntry;
import io.millrace.audit.report.AuditReader;
import io.millrace.audit.report.AuditReport;
import io.millrace.audit.report.Reconciliation;
import io.millrace.hadoop.LoaderCluster.SentEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/** What the audit tests read back from an audit topic, and the counts they expect there. */
public final class AuditReadBack {

    public static final long WINDOW_MS = 600_000;

    private AuditReadBack() {
    }

    /** Every entry of {@code auditTopic}, as the audit report reads them. */
    public static List<AuditEntry> entries(LoaderCluster cluster, String auditTopic) {
        return AuditReader.read(cluster.brokers().bootstrapServers(), cluster.registryUrl(), auditTopic, Pattern.compile(".*"),
            Long.MIN_VALUE, Long.MAX_VALUE);
    }

    /** The entries of the hadoop tier. */
    public static List<AuditEntry> hadoop(List<AuditEntry> entries) {
        return entries.stream().filter(e -> e.tier().equals(LoadConfig.AUDIT_TIER)).toList();
    }

    /** The lost ranges among {@code entries}, every record of them (an id published again is there twice). */
    public static List<AuditEntry> lostRanges(List<AuditEntry> entries) {
        return entries.stream().filter(e -> e.lost() != null).toList();
    }

    /** Events per window start, as the sent events' times fall. */
    public static Map<Long, Long> expectedPerWindow(List<SentEvent> sent) {
        Map<Long, Long> counts = new TreeMap<>();
        sent.forEach(e -> counts.merge(Math.floorDiv(e.timeMs(), WINDOW_MS) * WINDOW_MS, 1L, Long::sum));
        return counts;
    }

    /** Events per window start in {@code entries}, each id once as the report counts it; windows counting none left out. */
    public static Map<Long, Long> countedPerWindow(List<AuditEntry> entries) {
        Map<Long, Long> counts = new TreeMap<>();
        Set<String> seen = new HashSet<>();
        for (AuditEntry entry : entries) {
            if (seen.add(entry.id()) && entry.window() != null && entry.window().count() > 0) {
                counts.merge(entry.window().start(), entry.window().count(), Long::sum);
            }
        }
        return counts;
    }

    /** The audit publisher of the test's front-end: the producer tier, cluster dc1, to {@code auditTopic}. */
    public static AuditPublisher producerTier(LoaderCluster cluster, String auditTopic) {
        Map<String, Object> settings = new HashMap<>();
        settings.put("bootstrap.servers", cluster.brokers().bootstrapServers());
        settings.put("schema.registry.url", cluster.registryUrl());
        settings.put(AuditConfig.AUDIT_TOPIC_CONFIG, auditTopic);
        settings.put(AuditConfig.AUDIT_TIER_CONFIG, "producer");
        settings.put(AuditConfig.AUDIT_CLUSTER_CONFIG, "dc1");
        settings.put(AuditConfig.AUDIT_APPLICATION_CONFIG, "loader-test");
        settings.put(AuditConfig.AUDIT_WINDOW_MS_CONFIG, WINDOW_MS);
        return new AuditPublisher(settings);
    }

    /**
     * Reconciles {@code entries} now, with no grace period, and checks that the hadoop tier has a row for each of
     * {@code windows} windows, each complete: counted exactly what the producers counted. Returns the report.
     */
    public static AuditReport assertHadoopComplete(List<AuditEntry> entries, int windows, String what) {
        AuditReport report = Reconciliation.reconcile(entries, System.currentTimeMillis(), 0);
        List<Reconciliation.Row> rows = report.rows().stream().filter(r -> r.tier().equals(LoadConfig.AUDIT_TIER)).toList();
        assertEquals(what, windows, rows.size());
        for (Reconciliation.Row row : rows) {
            assertEquals(what + " " + row, Reconciliation.Status.COMPLETE, row.status());
            assertEquals(what + " " + row, row.expected(), row.counted());
        }
        return report;
    }

    /** {@code a} and {@code b} in one list. */
    public static List<AuditEntry> concat(List<AuditEntry> a, List<AuditEntry> b) {
        List<AuditEntry> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
