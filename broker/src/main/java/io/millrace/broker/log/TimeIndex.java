package io.millrace.broker.log;

import io.millrace.common.record.RecordBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * A segment's {@code .timeindex} file: a sparse map from timestamp to offset, written at the same
 * cadence as the offset index, with strictly increasing timestamps.
 *
 * <pre>
 * Entry =&gt;                      12 bytes, big-endian
 *   Timestamp       int64      the largest batch max timestamp in the segment so far
 *   RelativeOffset  int32      base offset of the batch holding it, minus the segment's base offset
 * </pre>
 *
 * An entry (T, O) promises that every batch up to the moment it was written has timestamps of at
 * most T, so a search for the first record at or after time t may start at the last entry with
 * T &lt; t. The last entry, written when the segment stops being active, carries the segment's
 * largest timestamp, which retention by time uses after a restart; one slot is reserved for it
 * ({@link #isFull()} leaves it free).
 *
 * <p>Thread-safety and durability as for {@link AbstractIndex}.
 */
final class TimeIndex extends AbstractIndex {

    static final int ENTRY_SIZE = 12;

    TimeIndex(Path file, long baseOffset, LogFileOpener opener) throws IOException {
        super(file, baseOffset, ENTRY_SIZE, opener);
    }

    /** Full one entry early, keeping a slot for {@link #appendFinal}. */
    @Override
    boolean isFull() {
        return entries() >= maxEntries() - 1;
    }

    /** Adds (timestamp, offset) unless the index is full or the timestamp is not newer than the last. */
    synchronized void maybeAppend(long timestamp, long offset) {
        if (!isFull()) {
            appendIfNewer(timestamp, offset);
        }
    }

    /** Adds the segment's final (largest) timestamp into the reserved slot, if it is newer than the last. */
    synchronized void appendFinal(long timestamp, long offset) {
        if (entries() < maxEntries()) {
            appendIfNewer(timestamp, offset);
        }
    }

    private void appendIfNewer(long timestamp, long offset) {
        if (timestamp <= lastTimestamp()) {
            return;
        }
        int at = nextEntryIndex();
        ByteBuffer mapping = mapping();
        mapping.putLong(at, timestamp);
        mapping.putInt(at + Long.BYTES, (int) (offset - baseOffset()));
        publishAppend();
    }

    /**
     * The offset to start a search for the first record with a timestamp at or after
     * {@code timestamp}: that of the last entry with a smaller timestamp, or the base offset.
     */
    long lookupStart(long timestamp) {
        int n = entries();
        ByteBuffer mapping = mapping();
        int slot = largestLowerBound(mapping, n, timestamp, true);
        return slot < 0 ? baseOffset() : offsetAt(mapping, slot);
    }

    /** The last entry's timestamp, or {@link RecordBatch#NO_TIMESTAMP}. */
    long lastTimestamp() {
        int n = entries();
        return n == 0 ? RecordBatch.NO_TIMESTAMP : keyAt(mapping(), n - 1);
    }

    /** The last entry's offset, or the base offset. */
    long lastOffset() {
        int n = entries();
        return n == 0 ? baseOffset() : offsetAt(mapping(), n - 1);
    }

    @Override
    long keyAt(ByteBuffer buffer, int n) {
        return buffer.getLong(n * ENTRY_SIZE);
    }

    private long offsetAt(ByteBuffer buffer, int n) {
        return baseOffset() + buffer.getInt(n * ENTRY_SIZE + Long.BYTES);
    }

    @Override
    String sanityCheck(int logSize) {
        if (!hadWholeEntries()) {
            return "length is not a multiple of " + ENTRY_SIZE;
        }
        ByteBuffer mapping = mapping();
        long previousTimestamp = RecordBatch.NO_TIMESTAMP;
        long previousOffset = 0;
        for (int i = 0; i < entries(); i++) {
            long timestamp = mapping.getLong(i * ENTRY_SIZE);
            long relativeOffset = mapping.getInt(i * ENTRY_SIZE + Long.BYTES);
            if (timestamp <= previousTimestamp || relativeOffset < previousOffset) {
                return "entry " + i + " (timestamp " + timestamp + ", relative offset " + relativeOffset
                    + ") does not follow its predecessor";
            }
            previousTimestamp = timestamp;
            previousOffset = relativeOffset;
        }
        return null;
    }
}
