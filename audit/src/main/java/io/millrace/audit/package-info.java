/**
 * The audit stream: every tier of the pipeline counts, per topic and tumbling window of event time,
 * what it saw ({@link io.millrace.audit.AuditCounter}), and publishes the counts as Avro deltas keyed by
 * a unique id to the audit topic ({@link io.millrace.audit.AuditPublisher}); the producer tier counts
 * through {@link io.millrace.audit.AuditingProducer}, a consumer group's tier through
 * {@link io.millrace.audit.AuditingConsumer} or {@link io.millrace.audit.AuditingPollingConsumer}, which
 * hold their counts ({@link io.millrace.audit.UncommittedCounts}) until the offsets are committed.
 */
package io.millrace.audit;
