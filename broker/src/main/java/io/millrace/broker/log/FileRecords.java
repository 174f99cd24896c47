package io.millrace.broker.log;

import io.millrace.common.errors.CorruptRecordException;
import io.millrace.common.record.RecordBatch;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * A segment's {@code .log} file: record batches back to back, exactly as producers sent them
 * with the broker's offsets written in. There is no file header; the batches' own length fields
 * delimit them (see {@link RecordBatch} for the layout).
 *
 * <p>Thread-safety: one writer, many readers. {@link #append}, {@link #truncateTo} and
 * {@link #close} are called by one thread at a time (the owning log's lock); every other method is
 * safe from any thread. The size is published after the bytes are written, so a reader bounded
 * by {@link #sizeInBytes()} never sees a half-written batch.
 *
 * <p>Header scans ({@link #search}) read batch headers from a read-only memory mapping of the
 * file's first {@code mappedBytes} bytes, which costs no system call, and fall back to a
 * positional read for headers beyond it. The mapping never reaches past the file's size when it
 * was made (a mapping past the end of a writable channel would extend the file), and it is
 * replaced lazily, by the reader that finds the published size {@link #REMAP_GROWTH_BYTES} past
 * it or finds the file {@link #seal sealed}, so that a tailing reader does not remap per read. A
 * replaced mapping, and the last one on {@link #close}, is never unmapped by force: the garbage
 * collector releases it once no reader holds it, so a reader racing with retention's close of a
 * deleted segment reads the still-mapped pages of the unlinked file and never touches an
 * unmapped page. {@link #truncateTo} drops the mapping; it runs in recovery only, before any
 * reader exists, since a reader touching a mapped page past a truncated end would fault.
 *
 * <p>Durability: writes go to the page cache; nothing is on disk until {@link #flush()}.
 */
final class FileRecords implements Closeable {

    private volatile Path file;
    private final FileChannel channel;
    // Written only by the writer, after its bytes are in the channel: the publication point.
    private volatile int size;

    /** How far the published size must outgrow the header mapping before a reader remaps. */
    static final int REMAP_GROWTH_BYTES = 16 * 1024 * 1024;

    private final int remapGrowthBytes;
    // Read-only mapping of [0, limit) for header reads; null until first mapped, after a
    // truncation and after close. Replaced under mapLock; never unmapped explicitly.
    private volatile ByteBuffer headerMap;
    // Set once no more appends come (the segment rolled): the next read maps the whole file.
    private volatile boolean sealed;
    private volatile boolean closed;
    // Set when a mapping could not be made; the JDK retries a failed map after a GC and a pause,
    // which a read must not pay again and again, so this file's headers are then read by pread.
    private volatile boolean mapFailed;
    private final Object mapLock = new Object();

    private FileRecords(Path file, FileChannel channel, int size, int remapGrowthBytes) {
        this.file = file;
        this.channel = channel;
        this.size = size;
        this.remapGrowthBytes = remapGrowthBytes;
    }

    /** Opens or creates the file; its current length is its size. */
    static FileRecords open(Path file, LogFileOpener opener) throws IOException {
        return open(file, opener, REMAP_GROWTH_BYTES);
    }

    /** As {@link #open(Path, LogFileOpener)}, remapping after {@code remapGrowthBytes} of growth (tests use small values). */
    static FileRecords open(Path file, LogFileOpener opener, int remapGrowthBytes) throws IOException {
        FileChannel channel = opener.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE);
        long length = channel.size();
        if (length > Integer.MAX_VALUE) {
            channel.close();
            throw new IOException("Segment file " + file + " is " + length + " bytes, more than a segment can hold");
        }
        return new FileRecords(file, channel, (int) length, remapGrowthBytes);
    }

    Path file() {
        return file;
    }

    FileChannel channel() {
        return channel;
    }

    int sizeInBytes() {
        return size;
    }

    /**
     * Writes the buffer's remaining bytes at the end of the file and publishes the new size.
     * Returns the position the bytes start at; the buffer's position is not moved.
     */
    int append(ByteBuffer records) throws IOException {
        int position = size;
        int bytes = records.remaining();
        if ((long) position + bytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("Appending " + bytes + " bytes at " + position + " overflows the segment");
        }
        IoUtils.writeFully(channel, records.duplicate(), position);
        size = position + bytes;
        return position;
    }

    FileSlice slice(int position, int bytes) {
        return new FileSlice(channel, position, bytes);
    }

    /**
     * The first whole batch at or after {@code startPosition}, and ending at or before {@code end},
     * that {@code matcher} accepts for {@code key}; null if there is none. hot path: allocates only
     * the result.
     */
    BatchLocation search(BatchMatcher matcher, long key, int startPosition, int end) throws IOException {
        BatchHeaders headers = BatchHeaders.local();
        ByteBuffer map = headerMapping(end);
        int position = startPosition;
        for (RecordBatch header = headers.read(map, channel, position, end); header != null;
             header = headers.read(map, channel, position, end)) {
            if (matcher.matches(header, key)) {
                return new BatchLocation(position, header.sizeInBytes(), header.baseOffset());
            }
            position += header.sizeInBytes();
        }
        return null;
    }

    /**
     * The header mapping for a read that looks no further than {@code end}, remapped first if
     * {@code end} lies well beyond it or the file is sealed; null if there is none. A mapping
     * that cannot be made (closed channel, address space or map count exhausted) is no error:
     * the reads fall back to positional reads, which report a real I/O problem themselves.
     */
    private ByteBuffer headerMapping(int end) {
        ByteBuffer map = headerMap;
        int mapped = map == null ? 0 : map.limit();
        if (end <= mapped || closed || mapFailed || (end - mapped < remapGrowthBytes && !sealed)) {
            return map;
        }
        synchronized (mapLock) {
            map = headerMap;
            mapped = map == null ? 0 : map.limit();
            // Another reader may have remapped meanwhile.
            if (end <= mapped || closed || mapFailed || (end - mapped < remapGrowthBytes && !sealed)) {
                return map;
            }
            try {
                // Never past the file's current length: mapping beyond it would extend the file.
                int length = (int) Math.min(channel.size(), Math.max(end, size));
                if (length <= mapped) {
                    return map;
                }
                map = channel.map(FileChannel.MapMode.READ_ONLY, 0, length);
                headerMap = map;
            } catch (IOException e) {
                // Positional reads serve whatever lies beyond the old mapping from now on.
                mapFailed = true;
            }
            return map;
        }
    }

    /** Marks the file as complete: no more appends, so the next read maps all of it at once. */
    void seal() {
        sealed = true;
    }

    /** Bytes covered by the current header mapping; for tests. */
    int mappedBytes() {
        ByteBuffer map = headerMap;
        return map == null ? 0 : map.limit();
    }

    /** The next offset after the last whole batch at or after {@code startPosition}, or {@code ifEmpty}. */
    long nextOffsetAfter(int startPosition, long ifEmpty) throws IOException {
        BatchHeaders headers = BatchHeaders.local();
        long next = ifEmpty;
        int position = startPosition;
        for (RecordBatch header = headers.read(channel, position, size); header != null;
             header = headers.read(channel, position, size)) {
            next = header.nextOffset();
            position += header.sizeInBytes();
        }
        return next;
    }

    /**
     * Reads the batch at {@code position} into {@code scratch} (or a larger buffer if it does not
     * fit, which is returned) and checks it with {@link RecordBatch#ensureIntact()}. For recovery:
     * throws {@link CorruptRecordException} for a torn tail, and the record exceptions for
     * damage, so that the caller can report why it stopped.
     */
    ByteBuffer readValidBatch(int position, ByteBuffer scratch) throws IOException {
        int available = size - position;
        if (available < RecordBatch.LOG_OVERHEAD) {
            throw new CorruptRecordException("Torn batch: only " + available + " bytes at the end of the file");
        }
        scratch.clear().limit(RecordBatch.LOG_OVERHEAD);
        IoUtils.readFully(channel, scratch, position);
        int length = scratch.getInt(RecordBatch.LOG_OVERHEAD - Integer.BYTES);
        if (length < RecordBatch.MIN_LENGTH || length > available - RecordBatch.LOG_OVERHEAD) {
            throw new CorruptRecordException("Torn or damaged batch: length " + length + " with "
                + (available - RecordBatch.LOG_OVERHEAD) + " bytes following");
        }
        int batchSize = RecordBatch.LOG_OVERHEAD + length;
        ByteBuffer buffer = scratch.capacity() >= batchSize ? scratch : ByteBuffer.allocate(batchSize);
        buffer.clear().limit(batchSize);
        IoUtils.readFully(channel, buffer, position);
        buffer.flip();
        RecordBatch.wrap(buffer, 0).ensureIntact();
        return buffer;
    }

    /** Cuts the file to {@code newSize} bytes; for recovery, when no reader can be looking. */
    void truncateTo(int newSize) throws IOException {
        synchronized (mapLock) {
            // Pages past the new end would fault if touched; no reader exists yet to hold them.
            headerMap = null;
        }
        channel.truncate(newSize);
        size = newSize;
    }

    void flush() throws IOException {
        channel.force(true);
    }

    long lastModifiedMs() throws IOException {
        return Files.getLastModifiedTime(file).toMillis();
    }

    void renameTo(Path target) throws IOException {
        Files.move(file, target);
        file = target;
    }

    /** Renames the file over {@code target} in one atomic step: a reader of the path sees the old file or this one. */
    void replace(Path target) throws IOException {
        Files.move(file, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        file = target;
    }

    void deleteIfExists() throws IOException {
        Files.deleteIfExists(file);
    }

    @Override
    public void close() throws IOException {
        synchronized (mapLock) {
            // Dropped, not unmapped: a racing reader may still hold it; the GC releases it.
            closed = true;
            headerMap = null;
        }
        channel.close();
    }

    /** What a {@link #search} looks for. */
    enum BatchMatcher {
        /** The batch that holds offset {@code key}, or the first after it. */
        LAST_OFFSET_AT_LEAST {
            @Override
            boolean matches(RecordBatch header, long key) {
                return header.lastOffset() >= key;
            }
        },
        /** The first batch with a record whose timestamp may be at least {@code key}. */
        MAX_TIMESTAMP_AT_LEAST {
            @Override
            boolean matches(RecordBatch header, long key) {
                return header.maxTimestamp() >= key;
            }
        };

        abstract boolean matches(RecordBatch header, long key);
    }

    /** Where a batch lies in the file, and its first offset. */
    record BatchLocation(int position, int size, long baseOffset) {
    }
}
