/**
 * The audit report: {@link io.millrace.audit.report.AuditReader} reads the audit topic,
 * {@link io.millrace.audit.report.Reconciliation} sums the deltas once each and judges every downstream
 * tier's window against the producers, and {@link io.millrace.audit.report.AuditReport} prints the answer
 * as a table or JSON, or {@link io.millrace.audit.report.HtmlReport} as one self-contained page with a
 * heat map, the incomplete windows and a chart per topic.
 */
package io.millrace.audit.report;
