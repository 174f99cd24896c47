package io.millrace.consumer;

import io.millrace.common.errors.CorruptRecordException;
import io.millrace.common.record.Record;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchIterator;
import io.millrace.common.record.TimestampType;
import java.nio.ByteBuffer;

/**
 * Walks the records of one fetch's bytes from an offset on, moving one {@link RecordView} from
 * record to record. The same batches are skipped as by the copying iterator: records below the
 * offset asked for, control batches, and everything from the end offset on. A batch's CRC is
 * checked once, before its first record; a compressed batch is inflated once. Not thread-safe.
 */
final class ViewCursor {

    private final RecordView view;
    private RecordBatchIterator batches;
    private long fromOffset;
    private long toOffset;
    private boolean checkCrcs;
    /** Where the current batch's next record starts. */
    private int position;
    private int recordsEnd;
    /** The current batch's records not yet handed out. */
    private int remaining;
    /** Whether the current batch straddles fromOffset or toOffset, so each offset must be looked at. */
    private boolean straddles;

    ViewCursor(RecordView view) {
        this.view = view;
    }

    /** Starts over on {@code fetched}'s bytes, for the records of {@code [fromOffset, toOffset)}. */
    void reset(FetchedBatches fetched, long fromOffset, long toOffset) {
        this.batches = new RecordBatchIterator(fetched.readableRecords());
        this.fromOffset = Math.max(fromOffset, fetched.fetchOffset());
        this.toOffset = toOffset;
        this.checkCrcs = fetched.checkCrcs();
        this.remaining = 0;
    }

    /** Moves the view to the next record; false when none is left below the end offset. Hot path: no allocation. */
    boolean advance() {
        while (true) {
            if (remaining > 0) {
                position = view.readAt(position);
                if (--remaining == 0 && position != recordsEnd) {
                    throw new CorruptRecordException("Record batch has " + (recordsEnd - position)
                        + " bytes after its records");
                }
                if (!straddles) {
                    return true;
                }
                long offset = view.offset();
                if (offset >= toOffset) {
                    remaining = 0;
                    return false;
                }
                if (offset >= fromOffset) {
                    return true;
                }
            } else if (batches == null || !nextBatch()) {
                return false;
            }
        }
    }

    private boolean nextBatch() {
        while (batches.hasNext()) {
            RecordBatch batch = batches.next();
            if (batch.baseOffset() >= toOffset) {
                batches = null;
                return false;
            }
            if (batch.lastOffset() < fromOffset || batch.isControlBatch()) {
                continue;
            }
            if (checkCrcs && !batch.isValid()) {
                throw new CorruptRecordException("Fetched record batch at offset " + batch.baseOffset()
                    + " fails its CRC check");
            }
            startBatch(batch);
            return true;
        }
        return false;
    }

    private void startBatch(RecordBatch batch) {
        ByteBuffer records = batch.recordsBytes(RecordBatch.DEFAULT_MAX_RECORDS_BYTES);
        int count = batch.recordCount();
        if ((long) count * Record.MIN_SIZE_IN_BYTES > records.remaining()) {
            throw new CorruptRecordException("Record batch at offset " + batch.baseOffset() + " claims " + count
                + " records but holds only " + records.remaining() + " bytes of records");
        }
        if (count == 0 && records.hasRemaining()) {
            throw new CorruptRecordException("Record batch at offset " + batch.baseOffset() + " has "
                + records.remaining() + " bytes after its 0 records");
        }
        view.startBatch(records, batch.baseOffset(), batch.baseTimestamp(),
            batch.timestampType() == TimestampType.LOG_APPEND_TIME, batch.maxTimestamp());
        position = records.position();
        recordsEnd = records.limit();
        remaining = count;
        straddles = batch.baseOffset() < fromOffset || batch.lastOffset() >= toOffset;
    }
}
