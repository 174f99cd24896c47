package io.millrace.hadoop.state;

/**
 * {@code audits/<sequence>.json}: the audit topic acknowledged the window counts and lost ranges of the committed
 * load {@code sequence} ({@code records} audit records to {@code auditTopic}), so no later load publishes them
 * again. Written only after the acknowledgement; a crash before it means they are published once more,
 * under the same ids, which the audit report counts once. Immutable.
 */
public record AuditMark(long sequence, long publishedAtMs, String auditTopic, int records) {
}
