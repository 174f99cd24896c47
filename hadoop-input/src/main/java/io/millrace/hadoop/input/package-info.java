/**
 * The MapReduce InputFormat over Millrace partitions. {@link io.millrace.hadoop.input.MillraceInputFormat#getSplits}
 * plans once, at job start: per partition the offsets from where the last committed load stopped to the
 * log end offset read then, cut into chunks and packed into splits without locations. The
 * {@link io.millrace.hadoop.input.MillraceRecordReader} reads exactly those offsets, so every attempt of
 * a task sees the same messages; it decodes Avro values through the schema registry and sends what it
 * cannot decode to an error output. Offsets lost to retention are recorded, never skipped in silence.
 */
package io.millrace.hadoop.input;
