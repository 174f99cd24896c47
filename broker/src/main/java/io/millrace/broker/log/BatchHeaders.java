package io.millrace.broker.log;

import io.millrace.common.errors.CorruptRecordException;
import io.millrace.common.record.RecordBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Reads the fixed header of the batch at a file position into a scratch buffer, for the short
 * scans a fetch or a timestamp lookup makes after the index lookup. Each thread has its own
 * instance ({@link #local()}) so that a scan allocates nothing; the returned view is valid until
 * that thread's next {@link #read}. Not thread-safe by design.
 */
final class BatchHeaders {

    private static final ThreadLocal<BatchHeaders> LOCAL = ThreadLocal.withInitial(BatchHeaders::new);

    private final ByteBuffer buffer = ByteBuffer.allocate(RecordBatch.HEADER_SIZE);
    private final RecordBatch view = RecordBatch.wrap(buffer, 0);

    private BatchHeaders() {
    }

    static BatchHeaders local() {
        return LOCAL.get();
    }

    /**
     * The header of the batch at {@code position}, or null when the batch does not end at or
     * before {@code end} (there is no further whole batch). hot path: no allocation.
     */
    RecordBatch read(FileChannel channel, int position, int end) throws IOException {
        return read(null, channel, position, end);
    }

    /**
     * As {@link #read(FileChannel, int, int)}, but copies the header from {@code map} (a mapping
     * of the file from position 0, may be null) when it lies inside it, without a system call.
     * The returned view never refers to {@code map}, so no thread keeps an old mapping alive.
     */
    RecordBatch read(ByteBuffer map, FileChannel channel, int position, int end) throws IOException {
        if (end - position < RecordBatch.HEADER_SIZE) {
            return null;
        }
        buffer.clear();
        if (map != null && position <= map.limit() - RecordBatch.HEADER_SIZE) {
            try {
                map.get(position, buffer.array(), 0, RecordBatch.HEADER_SIZE);
            } catch (InternalError e) {
                // The JVM reports a fault on a mapped page (an I/O error paging it in) this way.
                throw new IOException("Reading the batch header at position " + position + " failed", e);
            }
        } else {
            IoUtils.readFully(channel, buffer, position);
        }
        int size = view.sizeInBytes();
        if (size < RecordBatch.HEADER_SIZE) {
            // Bytes below the published end were validated when written; this is damage on disk.
            throw new CorruptRecordException("Record batch at position " + position + " has size " + size);
        }
        return size <= end - position ? view : null;
    }
}
