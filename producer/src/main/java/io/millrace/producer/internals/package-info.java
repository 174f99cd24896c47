/**
 * The producer's machinery, not part of its API: the {@link io.millrace.producer.internals.BufferPool}
 * of batch memory, the {@link io.millrace.producer.internals.RecordAccumulator} of per-partition
 * batches that sending threads append to, and the single {@link io.millrace.producer.internals.Sender}
 * network thread that drains them into one Produce request per broker and completes them. Records
 * are encoded once, into pooled buffers, and those bytes go on the wire as they are.
 */
package io.millrace.producer.internals;
