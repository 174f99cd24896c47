package io.millrace.audit.report;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.audit.report.Reconciliation.Row;
import io.millrace.audit.report.Reconciliation.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.Test;

/** Summing deltas once each, judging downstream tiers against the producers, grace, lost ranges. */
public class ReconciliationTest {

    private static final long W = 600_000;
    private static final long T0 = 1_800_000_000_000L - 1_800_000_000_000L % W;
    private static final long LONG_AFTER = T0 + 100 * W;

    private final List<AuditEntry> entries = new ArrayList<>();

    private AuditEntry counted(String tier, String cluster, String host, long windowStart, long count) {
        AuditEntry entry = new AuditEntry(UUID.randomUUID().toString(), tier, cluster, host, "app", "views", 0,
            new AuditEntry.Window(windowStart, windowStart + W, count, count * 10, 0, 0, 0), null);
        entries.add(entry);
        return entry;
    }

    private Row row(AuditReport report, String tier, String cluster, long windowStart) {
        return report.rows().stream().filter(r -> r.tier().equals(tier) && r.cluster().equals(cluster)
            && r.windowStart() == windowStart).findFirst().orElseThrow();
    }

    @Test
    public void everyDownstreamTierIsHeldAgainstItsDataCentresProducersOrAgainstAllOfThem() {
        counted("producer", "dc1", "fe-1", T0, 60);
        counted("producer", "dc1", "fe-2", T0, 40);
        counted("producer", "dc2", "fe-3", T0, 50);
        counted("live", "dc1", "mm", T0, 100);
        counted("live", "dc2", "mm", T0, 50);
        counted("offline", "dc1", "mm", T0, 99);
        counted("offline", "dc2", "mm", T0, 50);
        counted("hadoop", "offline", "job", T0, 140);
        counted("hadoop", "offline", "job", T0, 9);   // a second delta
        AuditReport report = Reconciliation.reconcile(entries, LONG_AFTER, W);

        assertEquals(Status.COMPLETE, row(report, "live", "dc1", T0).status());
        Row offline = row(report, "offline", "dc1", T0);
        assertEquals(Status.INCOMPLETE, offline.status());
        assertEquals(100, offline.expected());
        assertEquals(1, offline.missing());
        Row hadoop = row(report, "hadoop", "offline", T0);
        assertEquals("against every producer of the topic", 150, hadoop.expected());
        assertEquals(1, hadoop.missing());
        assertEquals(AuditReport.INCOMPLETE, report.exitStatus());
        assertEquals(Map.of("fe-1", 60L, "fe-2", 40L, "fe-3", 50L), report.producerHosts().get("views").get(T0));
    }

    @Test
    public void theSameAuditRecordTwiceCountsOnce() {
        counted("producer", "dc1", "fe-1", T0, 10);
        entries.add(counted("live", "dc1", "mm", T0, 10));   // the same record (id) twice
        AuditReport report = Reconciliation.reconcile(entries, LONG_AFTER, W);
        assertEquals(10, row(report, "live", "dc1", T0).counted());
        assertEquals(1, report.duplicateRecords());
        assertEquals(AuditReport.COMPLETE, report.exitStatus());
    }

    @Test
    public void aWindowInsideTheGracePeriodIsPendingNotFailed() {
        counted("producer", "dc1", "fe-1", T0, 10);
        counted("live", "dc1", "mm", T0, 3);
        AuditReport report = Reconciliation.reconcile(entries, T0 + W + W / 2, W);
        assertEquals(Status.PENDING, row(report, "live", "dc1", T0).status());
        assertEquals(AuditReport.COMPLETE, report.exitStatus());
        assertEquals(Status.INCOMPLETE, row(Reconciliation.reconcile(entries, T0 + 2 * W, W), "live", "dc1", T0).status());
    }

    @Test
    public void aTierThatCountedNothingInAWindowWithTrafficIsMissingItAllAndQuietWindowsAreNotJudged() {
        counted("producer", "dc1", "fe-1", T0, 10);
        counted("live", "dc1", "mm", T0, 10);
        counted("producer", "dc1", "fe-1", T0 + W, 5);   // the mirror counted nothing in this window
        AuditReport report = Reconciliation.reconcile(entries, LONG_AFTER, W);
        Row missed = row(report, "live", "dc1", T0 + W);
        assertEquals(0, missed.counted());
        assertEquals(5, missed.missing());
        assertEquals(Status.INCOMPLETE, missed.status());
        assertEquals("two windows with traffic, none for the quiet ones", 2, report.rows().size());
    }

    @Test
    public void moreThanWasProducedIsAFailureTooAndLostRangesAreNamed() {
        counted("producer", "dc1", "fe-1", T0, 10);
        counted("live", "dc1", "mm", T0, 12);
        entries.add(new AuditEntry(UUID.randomUUID().toString(), "live", "dc1", "mm", "mirror", "views", 0, null,
            new AuditEntry.Lost(3, 100, 149, 50)));
        AuditReport report = Reconciliation.reconcile(entries, LONG_AFTER, W);
        assertEquals(Status.OVER, row(report, "live", "dc1", T0).status());
        assertEquals(1, report.lost().size());
        assertEquals(50, report.lost().get(0).count());
        String json = report.toJson();
        assertTrue(json, json.contains("\"status\":\"INCOMPLETE\"") && json.contains("\"partition\":3")
            && json.contains("\"counted\":12") && json.contains("\"status\":\"OVER\""));
    }

    @Test
    public void aDataCentreThatProducedNothingInAWindowIsNotHeldAgainstTheOthersProducers() {
        counted("producer", "dc1", "fe-1", T0, 10);
        counted("producer", "dc2", "fe-3", T0, 20);
        counted("live", "dc1", "mm", T0, 10);
        counted("live", "dc2", "mm", T0, 20);
        counted("producer", "dc1", "fe-1", T0 + W, 7);   // dc2 quiet in this window
        counted("live", "dc1", "mm", T0 + W, 7);
        AuditReport report = Reconciliation.reconcile(entries, LONG_AFTER, W);
        assertEquals(report.rows().toString(), 3, report.rows().size());
        assertEquals(AuditReport.COMPLETE, report.exitStatus());

        counted("live", "dc2", "mm", T0 + W, 1);   // dc2's mirror counted what dc2 did not produce
        Row over = row(Reconciliation.reconcile(entries, LONG_AFTER, W), "live", "dc2", T0 + W);
        assertEquals(0, over.expected());
        assertEquals(Status.OVER, over.status());
    }

    @Test
    public void eachRowNamesTheProducersItIsHeldAgainst() {
        counted("producer", "dc1", "fe-1", T0, 60);
        counted("producer", "dc1", "fe-2", T0, 40);
        counted("producer", "dc2", "fe-3", T0, 50);
        counted("offline", "dc1", "mm", T0, 97);
        counted("hadoop", "offline", "job", T0, 150);
        AuditReport report = Reconciliation.reconcile(entries, LONG_AFTER, W);
        assertEquals(Map.of("fe-1", 60L, "fe-2", 40L), row(report, "offline", "dc1", T0).producers());
        assertEquals(Map.of("fe-1", 60L, "fe-2", 40L, "fe-3", 50L), row(report, "hadoop", "offline", T0).producers());
        String json = report.toJson();
        assertTrue(json, json.contains("\"tier\":\"offline\",\"cluster\":\"dc1\",\"produced\":100,\"counted\":97,"
            + "\"missing\":3,\"status\":\"INCOMPLETE\",\"producerHosts\":{\"fe-1\":60,\"fe-2\":40}}"));
    }
}
