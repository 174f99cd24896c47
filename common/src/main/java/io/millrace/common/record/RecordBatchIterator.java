package io.millrace.common.record;

import io.millrace.common.errors.CorruptRecordException;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Walks the batches of a buffer that holds zero or more record batches back to back, such as a
 * Produce request's records or a Fetch response's partition data. A fetch may end in the middle
 * of a batch: a trailing fragment shorter than the batch it starts is not an error, it ends the
 * iteration and is reported by {@link #truncatedBytes()}.
 *
 * <p>Each batch returned is a fresh {@link RecordBatch} view over the same buffer (nothing is
 * copied). Headers are checked as far as needed to step safely to the next batch (a length
 * below the minimum would loop or step backwards, so it throws {@link CorruptRecordException});
 * callers that need the CRC checked call {@link RecordBatch#ensureValid()}.
 */
public final class RecordBatchIterator implements Iterator<RecordBatch> {

    private final ByteBuffer buffer;
    private final int end;
    private int position;
    private RecordBatch next;

    /** Iterates the bytes between the buffer's position and limit; neither is changed. */
    public RecordBatchIterator(ByteBuffer buffer) {
        this.buffer = buffer;
        this.position = buffer.position();
        this.end = buffer.limit();
    }

    public static Iterable<RecordBatch> batches(ByteBuffer buffer) {
        return () -> new RecordBatchIterator(buffer);
    }

    @Override
    public boolean hasNext() {
        if (next == null) {
            next = advance();
        }
        return next != null;
    }

    @Override
    public RecordBatch next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        RecordBatch batch = next;
        next = null;
        return batch;
    }

    /** Bytes after the last whole batch: a fragment of a batch cut off by the buffer's end. */
    public int truncatedBytes() {
        hasNext();
        return next == null ? end - position : 0;
    }

    /** Absolute index in the buffer just past the last batch returned. */
    public int position() {
        return position;
    }

    private RecordBatch advance() {
        int remaining = end - position;
        if (remaining < RecordBatch.LOG_OVERHEAD) {
            return null;
        }
        int length = buffer.getInt(position + RecordBatch.LENGTH_OFFSET);
        if (length < RecordBatch.MIN_LENGTH) {
            throw new CorruptRecordException("Record batch at position " + position + " has length " + length
                + ", below the minimum " + RecordBatch.MIN_LENGTH);
        }
        if (length > remaining - RecordBatch.LOG_OVERHEAD) {
            return null;
        }
        RecordBatch batch = RecordBatch.wrap(buffer, position);
        position += RecordBatch.LOG_OVERHEAD + length;
        return batch;
    }
}
