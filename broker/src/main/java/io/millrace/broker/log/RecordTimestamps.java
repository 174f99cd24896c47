package io.millrace.broker.log;

import io.millrace.common.record.Record;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordIterator;
import io.millrace.common.record.TimestampType;

/**
 * Finds the first record of a batch whose timestamp is at least a target, for offsets-for-time
 * lookups. Stateless.
 *
 * <p>Walks the batch's records through the shared record reader, inflating a compressed batch
 * (bounded by the reader's limit; a stored batch is at most {@code max.message.bytes} anyway).
 * This is the one broker path that reads inside batches, and a ListOffsets request is rare
 * next to produce and fetch.
 */
final class RecordTimestamps {

    private RecordTimestamps() {
    }

    /** The first record at or after {@code target} in a whole, valid batch whose max timestamp is at least {@code target}. */
    static TimestampAndOffset firstAtOrAfter(RecordBatch batch, long target) {
        if (batch.timestampType() == TimestampType.LOG_APPEND_TIME) {
            return new TimestampAndOffset(batch.maxTimestamp(), batch.baseOffset());
        }
        if (batch.baseTimestamp() >= target) {
            return new TimestampAndOffset(batch.baseTimestamp(), batch.baseOffset());
        }
        try (RecordIterator records = batch.records()) {
            Record record = null;
            while (records.hasNext()) {
                record = records.nextInto(record);
                if (record.timestamp() >= target) {
                    return new TimestampAndOffset(record.timestamp(), record.offset());
                }
            }
        }
        // Unreachable for an honest batch (its max timestamp is at least the target).
        return new TimestampAndOffset(batch.maxTimestamp(), batch.baseOffset());
    }
}
