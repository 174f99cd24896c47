package io.millrace.common.record;

import io.millrace.common.errors.CorruptRecordException;
import io.millrace.common.errors.InvalidRecordException;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Walks the records of one batch, from {@link RecordBatch#records()}. It reads exactly the
 * batch's RecordsCount records and checks, as it goes, that each lies inside the records bytes,
 * that offset deltas rise and stay within LastOffsetDelta, and, after the last record, that no
 * bytes are left over. A violation raises {@link CorruptRecordException} or
 * {@link InvalidRecordException} from {@link #next()} and ends the iteration.
 *
 * <p>{@link #next()} returns a new {@link Record} view per record (small, nothing copied);
 * {@link #nextInto(Record)} refills one the caller keeps, for loops that must not allocate.
 * Records stay readable after the iterator is closed. Not thread-safe.
 */
public final class RecordIterator implements Iterator<Record>, AutoCloseable {

    /** The records' bytes; its limit never changes, so record slices can be cut from it. */
    final ByteBuffer data;
    /** Where the next record starts; its limit is moved while one record is parsed. */
    final ByteBuffer cursor;
    final long baseOffset;
    final long baseTimestamp;
    final long maxTimestamp;
    final boolean logAppendTime;
    private final int lastOffsetDelta;
    private final int count;
    private int read;
    private int previousOffsetDelta = -1;
    private boolean stopped;

    /** @param records the records' bytes between position and limit, not moved by the iterator */
    RecordIterator(RecordBatch batch, ByteBuffer records) {
        this.data = records.duplicate();
        this.cursor = records.duplicate();
        this.baseOffset = batch.baseOffset();
        this.baseTimestamp = batch.baseTimestamp();
        this.maxTimestamp = batch.maxTimestamp();
        this.logAppendTime = batch.timestampType() == TimestampType.LOG_APPEND_TIME;
        this.lastOffsetDelta = batch.lastOffsetDelta();
        this.count = batch.recordCount();
        checkCountFits();
    }

    /** A cheap early check: every record takes at least {@link Record#MIN_SIZE_IN_BYTES}. */
    private void checkCountFits() {
        if ((long) count * Record.MIN_SIZE_IN_BYTES > cursor.remaining()) {
            throw new CorruptRecordException("Record batch at offset " + baseOffset + " claims " + count
                + " records but holds only " + cursor.remaining() + " bytes of records");
        }
        if (count == 0) {
            ensureNoneRemaining();
        }
    }

    /** The number of records the batch claims. */
    public int count() {
        return count;
    }

    @Override
    public boolean hasNext() {
        return !stopped && read < count;
    }

    @Override
    public Record next() {
        return nextInto(null);
    }

    /**
     * Reads the next record into {@code reuse} (or into a new view when null) and returns it.
     * Hot path: no allocation when {@code reuse} is given. After an exception the record's
     * content is undefined and the iteration is over.
     */
    public Record nextInto(Record reuse) {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        Record record = reuse == null ? new Record() : reuse;
        stopped = true;
        record.readFrom(this);
        checkOffsetDelta(record.offsetDelta());
        if (++read == count) {
            ensureNoneRemaining();
        }
        stopped = false;
        return record;
    }

    private void checkOffsetDelta(int offsetDelta) {
        if (offsetDelta <= previousOffsetDelta || offsetDelta > lastOffsetDelta) {
            throw new InvalidRecordException("Record " + read + " of batch at offset " + baseOffset + " has offset delta "
                + offsetDelta + " after " + previousOffsetDelta + " (last offset delta " + lastOffsetDelta + ")");
        }
        previousOffsetDelta = offsetDelta;
    }

    private void ensureNoneRemaining() {
        if (cursor.hasRemaining()) {
            throw new CorruptRecordException("Record batch at offset " + baseOffset + " has " + cursor.remaining()
                + " bytes after its " + count + " records");
        }
    }

    /** Ends the iteration. Records already returned stay valid: they hold their own buffer views. */
    @Override
    public void close() {
        stopped = true;
    }
}
