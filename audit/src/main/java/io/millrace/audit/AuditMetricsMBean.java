package io.millrace.audit;

/**
 * A counting client's audit publishing, exported as
 * {@code io.millrace:type=audit-metrics,tier=<tier>,cluster=<cluster>,host=<host>,application=<application>}.
 */
public interface AuditMetricsMBean {

    /** Audit records the audit topic acknowledged. */
    long getPublishedRecords();

    /** Audit records made and not yet acknowledged (kept while the audit topic cannot be reached). */
    int getPendingRecords();

    /** Audit records given up: beyond audit.max.pending.records, or unsent when the client closed. Alert on it. */
    long getDroppedRecords();
}
