/**
 * Batch-level compression for record batch v2: gzip, snappy, lz4 and zstd, wrapped exactly as
 * Apache Kafka 4.3 wraps them so that compressed batches match Kafka's byte for byte. This is the
 * only package that imports the codec libraries (java.util.zip, snappy-java, lz4-java, zstd-jni).
 * Decompression is bounded by a caller-given maximum and reports damaged or hostile input only as
 * {@link io.millrace.common.errors.CorruptRecordException}, never as an OutOfMemoryError or a
 * library exception.
 */
package io.millrace.common.compress;
