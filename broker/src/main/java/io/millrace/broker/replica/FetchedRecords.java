package io.millrace.broker.replica;

import io.millrace.common.protocol.types.BufferPayload;
import io.millrace.common.protocol.types.RecordsPayload;
import java.nio.ByteBuffer;

/**
 * The whole batches of a fetched records field. A leader cuts its answer at the byte budget, so the
 * last batch may be partial; a follower appends only the complete ones and fetches the rest next time.
 */
final class FetchedRecords {

    /** Base offset (8) and batch length (4). */
    private static final int LOG_OVERHEAD = 12;

    private FetchedRecords() {
    }

    /** The complete batches of {@code records}, as a view (not copied); empty when there is none. */
    static ByteBuffer wholeBatches(RecordsPayload records) {
        if (records == null || records.sizeInBytes() == 0) {
            return ByteBuffer.allocate(0);
        }
        ByteBuffer buffer = records instanceof BufferPayload payload ? payload.buffer().slice() : copy(records);
        int end = 0;
        while (buffer.limit() - end >= LOG_OVERHEAD) {
            int next = end + LOG_OVERHEAD + buffer.getInt(end + 8);
            if (next > buffer.limit() || next <= end) {
                break;
            }
            end = next;
        }
        return buffer.limit(end).slice();
    }

    private static ByteBuffer copy(RecordsPayload records) {
        ByteBuffer copy = ByteBuffer.allocate(records.sizeInBytes());
        records.copyTo(copy);
        return copy.flip();
    }
}
