package io.millrace.broker.log;

import io.millrace.common.record.CompressionType;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.TimestampType;
import io.millrace.common.utils.ByteUtils;
import java.nio.ByteBuffer;

/**
 * Finds the first record of a batch whose timestamp is at least a target, for offsets-for-time
 * lookups. Stateless.
 *
 * <p>It reads just the leading fields of each record of an uncompressed batch (Length,
 * Attributes, TimestampDelta, OffsetDelta; see {@link io.millrace.common.record.Record}). A
 * compressed batch would have to be inflated; until the broker needs that elsewhere it answers
 * with the batch's first record, which never skips a matching record but may return one that is
 * older than the target.
 */
final class RecordTimestamps {

    private RecordTimestamps() {
    }

    /** The first record at or after {@code target} in a whole, valid batch whose max timestamp is at least {@code target}. */
    static TimestampAndOffset firstAtOrAfter(RecordBatch batch, long target) {
        if (batch.timestampType() == TimestampType.LOG_APPEND_TIME) {
            return new TimestampAndOffset(batch.maxTimestamp(), batch.baseOffset());
        }
        if (batch.baseTimestamp() >= target || batch.compressionType() != CompressionType.NONE) {
            return new TimestampAndOffset(batch.baseTimestamp(), batch.baseOffset());
        }
        ByteBuffer records = batch.slice();
        records.position(RecordBatch.HEADER_SIZE);
        for (int i = 0; i < batch.recordCount() && records.hasRemaining(); i++) {
            int length = ByteUtils.readVarint(records);
            int next = records.position() + length;
            records.get();
            long timestamp = batch.baseTimestamp() + ByteUtils.readVarlong(records);
            int offsetDelta = ByteUtils.readVarint(records);
            if (timestamp >= target) {
                return new TimestampAndOffset(timestamp, batch.baseOffset() + offsetDelta);
            }
            records.position(next);
        }
        // Unreachable for an honest batch (its max timestamp is at least the target).
        return new TimestampAndOffset(batch.maxTimestamp(), batch.baseOffset());
    }
}
