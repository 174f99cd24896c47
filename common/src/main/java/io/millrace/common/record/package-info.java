/**
 * Kafka's record batch v2 (magic 2): flyweight views for reading batches and records where their
 * bytes lie, a builder for writing them, and batch-level compression. The broker and every client
 * share this code, so the bytes a producer builds are the bytes the log stores and a consumer reads.
 */
package io.millrace.common.record;
