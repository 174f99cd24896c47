package io.millrace.broker.log;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A memory-mapped file of fixed-size entries sorted by key, relative to a segment's base
 * offset: the shared mechanics of {@link OffsetIndex} and {@link TimeIndex}.
 *
 * <p>The file is preallocated to the maximum index size while the segment is active, so appends
 * are plain stores into the mapping, and trimmed to its entries when the segment stops being
 * active or is closed; {@code entries = file length / entry size} for a trimmed file. An index
 * carries no checksum: it is derived from the {@code .log} file, so a damaged one is rebuilt.
 *
 * <p>Thread-safety: one writer, many readers. Mutators are synchronized (the flusher may force
 * the mapping while the writer trims it); lookups are lock-free: they read {@link #entries} (a
 * volatile written after the entry's bytes) and then the current mapping, and only touch entries
 * below that count. A replaced mapping is never unmapped by force; the garbage collector releases
 * it once no reader holds it, so a racing reader can never touch an unmapped page.
 *
 * <p>Durability: entries reach the disk on {@link #flush()}; {@link #close()} trims and fsyncs.
 */
abstract class AbstractIndex implements Closeable {

    private volatile Path file;
    private final FileChannel channel;
    private final long baseOffset;
    private final int entrySize;
    private final boolean wholeEntries;
    private volatile MappedByteBuffer mmap;
    private volatile int entries;
    private int maxEntries;

    /**
     * Opens or creates the file and counts its entries from its length, which is right for a
     * trimmed index; the owner then {@link #resize}s it to take appends, or checks it.
     */
    AbstractIndex(Path file, long baseOffset, int entrySize, LogFileOpener opener) throws IOException {
        this.file = file;
        this.baseOffset = baseOffset;
        this.entrySize = entrySize;
        this.channel = opener.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        long length = channel.size();
        this.wholeEntries = length % entrySize == 0;
        this.entries = (int) Math.min(Integer.MAX_VALUE, length / entrySize);
        remap();
    }

    /** Bytes of one entry. */
    final int entrySize() {
        return entrySize;
    }

    final long baseOffset() {
        return baseOffset;
    }

    final Path file() {
        return file;
    }

    final int entries() {
        return entries;
    }

    final int maxEntries() {
        return maxEntries;
    }

    boolean isFull() {
        return entries >= maxEntries;
    }

    /** The current mapping, for lock-free reads of entries below a count read first. */
    final ByteBuffer mapping() {
        return mmap;
    }

    /**
     * The byte index in {@link #mapping()} where the next entry goes. The subclass's append, which
     * holds this object's monitor, writes the entry there and then calls {@link #publishAppend()}.
     */
    final int nextEntryIndex() {
        if (entries >= maxEntries) {
            throw new IllegalStateException("Index " + file + " is full at " + entries + " entries");
        }
        return entries * entrySize;
    }

    /** Makes the entry just written visible to readers: the volatile write orders it after the bytes. */
    final void publishAppend() {
        entries = entries + 1;
    }

    /** Drops every entry from {@code n} on; for recovery and rebuilds. */
    final synchronized void truncateToEntries(int n) {
        entries = Math.min(entries, n);
    }

    /** Sets the file to {@code maxIndexSize} rounded down to whole entries, keeping the entries. */
    final synchronized void resize(int maxIndexSize) throws IOException {
        long newLength = Math.max(roundDown(maxIndexSize), (long) entries * entrySize);
        if (newLength != channel.size()) {
            setLength(newLength);
        }
        remap();
    }

    /** Shrinks the file to its entries, so that a reopened index counts them from its length. */
    final synchronized void trimToValidSize() throws IOException {
        long validLength = (long) entries * entrySize;
        if (channel.size() != validLength) {
            setLength(validLength);
        }
        remap();
    }

    /** Whether the file held whole entries only when it was opened (a torn trim or a foreign file does not). */
    final boolean hadWholeEntries() {
        return wholeEntries;
    }

    final synchronized void flush() throws IOException {
        mmap.force();
        channel.force(true);
    }

    final synchronized void renameTo(Path target) throws IOException {
        Files.move(file, target);
        file = target;
    }

    final void deleteIfExists() throws IOException {
        Files.deleteIfExists(file);
    }

    /** Trims and fsyncs, so that a clean shutdown leaves an index that loads as it is. */
    @Override
    public synchronized void close() throws IOException {
        if (!channel.isOpen()) {
            return;
        }
        try {
            trimToValidSize();
            channel.force(true);
        } finally {
            channel.close();
        }
    }

    /** Closes without trimming: for a file that is about to be deleted or whose directory failed. */
    final synchronized void closeQuietly() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // Nothing more can be done for a file we are abandoning.
        }
    }

    private void setLength(long length) throws IOException {
        long current = channel.size();
        if (length < current) {
            channel.truncate(length);
        } else if (length > current) {
            // Writing the last byte extends the file sparsely; the zero-filled middle costs no disk.
            channel.write(ByteBuffer.allocate(1), length - 1);
        }
    }

    private void remap() throws IOException {
        long length = channel.size();
        mmap = channel.map(FileChannel.MapMode.READ_WRITE, 0, length);
        maxEntries = (int) (length / entrySize);
    }

    private long roundDown(int size) {
        return (long) (size / entrySize) * entrySize;
    }

    /**
     * Index of the last entry whose key is at most {@code target} (or below it, when
     * {@code strict}), among the first {@code n}; -1 if none. Keys are strictly increasing.
     */
    final int largestLowerBound(ByteBuffer buffer, int n, long target, boolean strict) {
        int lo = 0;
        int hi = n - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long key = keyAt(buffer, mid);
            boolean below = strict ? key < target : key <= target;
            if (below) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    /** The sort key of entry {@code n}: an absolute offset or a timestamp. */
    abstract long keyAt(ByteBuffer buffer, int n);

    /**
     * Checks what a loaded index must satisfy to be used as it is: whole entries, strictly
     * increasing keys, values inside the segment. Returns a description of the first problem, or
     * null when the index is sound.
     */
    abstract String sanityCheck(int logSize);
}
