package io.millrace.mirror;

import io.millrace.common.record.Record;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordIterator;

/**
 * What the mirror must know of a record batch it copies whole, read in one pass over the records
 * where they lie, nothing decoded into objects: how many records and key and value bytes (the
 * metrics count what the record-by-record copy counts), their timestamps (the latency, the audit's
 * windows), and, on the way, every schema id a key or value names, copied offline before the batch
 * goes there.
 */
final class BatchSummary {

    final int records;
    final long bytes;
    /** Per record, only when audited: the audit counts by window of each record's own time. */
    final long[] timestamps;
    final int[] sizes;
    private final int timed;
    private final long timestampSum;
    private final long oldest;

    private BatchSummary(int records, long bytes, int timed, long timestampSum, long oldest, long[] timestamps, int[] sizes) {
        this.records = records;
        this.bytes = bytes;
        this.timed = timed;
        this.timestampSum = timestampSum;
        this.oldest = oldest;
        this.timestamps = timestamps;
        this.sizes = sizes;
    }

    /**
     * Reads the batch's records (inflating them if it is compressed).
     *
     * @param schemas null when no registries are configured
     */
    static BatchSummary scan(RecordBatch batch, String topic, SchemaCopier schemas, boolean audited) {
        RecordIterator iterator = batch.records();
        int count = iterator.count();
        long[] timestamps = audited ? new long[count] : null;
        int[] sizes = audited ? new int[count] : null;
        long bytes = 0;
        long timestampSum = 0;
        long oldest = Long.MAX_VALUE;
        int timed = 0;
        int index = 0;
        Record record = null;   // one view, read into record after record
        while (iterator.hasNext()) {
            record = iterator.nextInto(record);
            int size = Math.max(0, record.keySize()) + Math.max(0, record.valueSize());
            bytes += size;
            long timestamp = record.timestamp();
            if (timestamp >= 0) {
                timed++;
                timestampSum += timestamp;
                oldest = Math.min(oldest, timestamp);
            }
            if (schemas != null) {
                schemas.ensureCopied(topic, record.key(), true);
                schemas.ensureCopied(topic, record.value(), false);
            }
            if (audited) {
                timestamps[index] = timestamp;
                sizes[index] = size;
            }
            index++;
        }
        return new BatchSummary(index, bytes, timed, timestampSum, oldest, timestamps, sizes);
    }

    /** The sum over the records with a time of how long ago, at {@code nowMs}, they were made. */
    long latencySumMs(long nowMs) {
        return Math.max(0, timed * nowMs - timestampSum);
    }

    /** How long ago, at {@code nowMs}, the oldest record was made; 0 when none has a time. */
    long latencyMaxMs(long nowMs) {
        return timed == 0 ? 0 : Math.max(0, nowMs - oldest);
    }
}
