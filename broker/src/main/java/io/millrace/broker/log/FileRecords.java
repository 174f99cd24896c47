package io.millrace.broker.log;

import io.millrace.common.errors.CorruptRecordException;
import io.millrace.common.record.RecordBatch;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * <p>Durability: writes go to the page cache; nothing is on disk until {@link #flush()}.
 */
final class FileRecords implements Closeable {

    private volatile Path file;
    private final FileChannel channel;
    // Written only by the writer, after its bytes are in the channel: the publication point.
    private volatile int size;

    private FileRecords(Path file, FileChannel channel, int size) {
        this.file = file;
        this.channel = channel;
        this.size = size;
    }

    /** Opens or creates the file; its current length is its size. */
    static FileRecords open(Path file, LogFileOpener opener) throws IOException {
        FileChannel channel = opener.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE);
        long length = channel.size();
        if (length > Integer.MAX_VALUE) {
            channel.close();
            throw new IOException("Segment file " + file + " is " + length + " bytes, more than a segment can hold");
        }
        return new FileRecords(file, channel, (int) length);
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
        int position = startPosition;
        for (RecordBatch header = headers.read(channel, position, end); header != null;
             header = headers.read(channel, position, end)) {
            if (matcher.matches(header, key)) {
                return new BatchLocation(position, header.sizeInBytes(), header.baseOffset());
            }
            position += header.sizeInBytes();
        }
        return null;
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
     * fit, which is returned) and checks it with {@link RecordBatch#ensureValid()}. For recovery:
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
        RecordBatch.wrap(buffer, 0).ensureValid();
        return buffer;
    }

    /** Cuts the file to {@code newSize} bytes; for recovery, when no reader can be looking. */
    void truncateTo(int newSize) throws IOException {
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

    void deleteIfExists() throws IOException {
        Files.deleteIfExists(file);
    }

    @Override
    public void close() throws IOException {
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
