/**
 * JMH benchmarks of the partition log's hot paths (append, read) for 200-byte records in
 * batches of 1, 50 and 1000, each beside raw {@link java.nio.channels.FileChannel} writes and
 * reads of the same sizes on the same filesystem in the same run, so the ratio says how close
 * the log comes to what the disk and page cache allow.
 */
package io.millrace.bench.storage;
