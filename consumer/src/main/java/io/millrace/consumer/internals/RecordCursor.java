package io.millrace.consumer.internals;

import io.millrace.common.errors.CorruptRecordException;
import io.millrace.common.record.Record;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchIterator;
import io.millrace.common.record.RecordIterator;
import java.nio.ByteBuffer;

/**
 * Walks the records of fetched bytes (whole batches back to back, perhaps ending in a fragment)
 * from a given offset on, as views over those bytes: a compressed batch is inflated once, an
 * uncompressed one is read where it lies. Records below {@code fromOffset} (a fetch may return a
 * batch that starts before the offset asked for) and control batches are skipped. Not thread-safe.
 */
public final class RecordCursor {

    private final RecordBatchIterator batches;
    private final long fromOffset;
    private final long toOffset;
    private final boolean checkCrcs;
    private final Record reuse;
    private RecordIterator records;
    private Record current;

    /**
     * @param fromOffset the first offset to return
     * @param toOffset   the offset to stop before (Long.MAX_VALUE: all)
     * @param reuse      when not null, every record is read into this one view (no allocation per record)
     */
    public RecordCursor(ByteBuffer fetched, long fromOffset, long toOffset, boolean checkCrcs, Record reuse) {
        this.batches = new RecordBatchIterator(fetched);
        this.fromOffset = fromOffset;
        this.toOffset = toOffset;
        this.checkCrcs = checkCrcs;
        this.reuse = reuse;
    }

    /** Moves to the next record; false when there is none left (below {@code toOffset}). */
    public boolean advance() {
        while (true) {
            if (records != null && records.hasNext()) {
                Record record = records.nextInto(reuse);
                if (record.offset() >= toOffset) {
                    records = null;
                    return false;
                }
                if (record.offset() >= fromOffset) {
                    current = record;
                    return true;
                }
            } else if (!nextBatch()) {
                return false;
            }
        }
    }

    /** The record {@link #advance()} moved to; with a reused view, valid until the next advance. */
    public Record current() {
        return current;
    }

    private boolean nextBatch() {
        while (batches.hasNext()) {
            RecordBatch batch = batches.next();
            if (batch.baseOffset() >= toOffset) {
                return false;
            }
            if (batch.lastOffset() < fromOffset || batch.isControlBatch()) {
                continue;
            }
            if (checkCrcs && !batch.isValid()) {
                throw new CorruptRecordException("Fetched record batch at offset " + batch.baseOffset()
                    + " fails its CRC check");
            }
            records = batch.records();
            return true;
        }
        return false;
    }

    /**
     * The offset to fetch after these bytes: past the last whole batch, or {@code fetchOffset} when
     * there is none. Reads batch headers only.
     */
    public static long nextFetchOffset(ByteBuffer fetched, long fetchOffset) {
        long next = fetchOffset;
        RecordBatchIterator batches = new RecordBatchIterator(fetched);
        while (batches.hasNext()) {
            next = Math.max(next, batches.next().nextOffset());
        }
        return next;
    }
}
