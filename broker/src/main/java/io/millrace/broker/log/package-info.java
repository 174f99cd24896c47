/**
 * The broker's partition log: one directory per partition ({@link io.millrace.broker.log.Log}),
 * split into segments ({@link io.millrace.broker.log.LogSegment}) that each own a {@code .log}
 * file of record batches ({@link io.millrace.broker.log.FileRecords}), a sparse offset index and a
 * time index. {@link io.millrace.broker.log.LogManager} owns every partition of the broker's log
 * directories, their retention and flush schedules, recovery after a crash and offline
 * directories. Batches are stored exactly as producers sent them (offsets rewritten in place) and
 * served to fetchers as {@link io.millrace.broker.log.FileSlice}s for zero-copy transfer. Each log
 * checks idempotent producers' sequence numbers against its
 * {@link io.millrace.broker.log.ProducerStateManager}, snapshotted in {@code .snapshot} files.
 * docs/storage.md describes the on-disk layout and what survives a crash.
 */
package io.millrace.broker.log;
