package io.millrace.broker.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * A segment's {@code .index} file: a sparse map from offset to the file position of the batch
 * that starts at that offset, one entry per {@code index.interval.bytes} of batches.
 *
 * <pre>
 * Entry =&gt;                      8 bytes, big-endian, sorted by both fields
 *   RelativeOffset  int32      batch base offset minus the segment's base offset
 *   Position        int32      byte position of that batch in the .log file
 * </pre>
 *
 * For example the entry {@code 00 00 00 2A 00 00 10 40} in segment {@code 00000000000000001000}
 * says the batch at offset 1042 starts at byte 4160. The first batch of a segment (position 0)
 * has no entry; a lookup that finds nothing starts there. Offsets are stored relative to the
 * segment so that an entry fits in 8 bytes; a segment rolls before an offset would not fit.
 *
 * <p>Thread-safety and durability as for {@link AbstractIndex}: one writer, lock-free readers.
 */
final class OffsetIndex extends AbstractIndex {

    static final int ENTRY_SIZE = 8;

    OffsetIndex(Path file, long baseOffset, LogFileOpener opener) throws IOException {
        super(file, baseOffset, ENTRY_SIZE, opener);
    }

    /** Adds an entry for the batch starting at {@code offset}; offsets and positions must increase. */
    synchronized void append(long offset, int position) {
        int at = nextEntryIndex();
        int n = entries();
        if (n > 0 && offset <= lastOffset()) {
            throw new IllegalArgumentException("Index entry for offset " + offset + " after offset " + lastOffset()
                + " in " + file());
        }
        ByteBuffer mapping = mapping();
        mapping.putInt(at, relative(offset));
        mapping.putInt(at + Integer.BYTES, position);
        publishAppend();
    }

    /**
     * The file position to start scanning from for {@code targetOffset}: that of the last entry at
     * or below it, or 0. hot path: no allocation.
     */
    int lookup(long targetOffset) {
        int n = entries();
        ByteBuffer mapping = mapping();
        int slot = largestLowerBound(mapping, n, targetOffset, false);
        return slot < 0 ? 0 : mapping.getInt(slot * ENTRY_SIZE + Integer.BYTES);
    }

    /** The offset of the last entry, or the base offset when there is none. */
    long lastOffset() {
        int n = entries();
        return n == 0 ? baseOffset() : keyAt(mapping(), n - 1);
    }

    /** The position of the last entry, or 0. */
    int lastPosition() {
        int n = entries();
        return n == 0 ? 0 : mapping().getInt((n - 1) * ENTRY_SIZE + Integer.BYTES);
    }

    @Override
    long keyAt(ByteBuffer buffer, int n) {
        return baseOffset() + buffer.getInt(n * ENTRY_SIZE);
    }

    private int relative(long offset) {
        long relative = offset - baseOffset();
        if (relative < 0 || relative > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("Offset " + offset + " does not fit an index based at " + baseOffset());
        }
        return (int) relative;
    }

    @Override
    String sanityCheck(int logSize) {
        if (!hadWholeEntries()) {
            return "length is not a multiple of " + ENTRY_SIZE;
        }
        ByteBuffer mapping = mapping();
        long previousOffset = -1;
        int previousPosition = 0;
        for (int i = 0; i < entries(); i++) {
            long relativeOffset = mapping.getInt(i * ENTRY_SIZE);
            int position = mapping.getInt(i * ENTRY_SIZE + Integer.BYTES);
            if (relativeOffset <= previousOffset || position <= previousPosition || position >= logSize) {
                return "entry " + i + " (relative offset " + relativeOffset + ", position " + position
                    + ") does not follow its predecessor or lies outside the " + logSize + "-byte log";
            }
            previousOffset = relativeOffset;
            previousPosition = position;
        }
        return null;
    }
}
