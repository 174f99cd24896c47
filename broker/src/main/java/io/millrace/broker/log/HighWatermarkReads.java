package io.millrace.broker.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * Cuts a read at the high watermark, for consumers of a replicated partition: they may see only
 * batches that every in-sync replica has. The HW always falls on a batch boundary (it is a
 * follower's log end offset), so the slice ends before the first batch whose base offset is at or
 * past it. Walks the slice's batch headers (12 bytes each) with positioned reads; callers skip it
 * when the log ends at or below the HW, the common case for a consumer that is caught up.
 */
public final class HighWatermarkReads {

    /** Base offset (8) and batch length (4): where the next batch starts. */
    private static final int HEADER_BYTES = 12;

    private HighWatermarkReads() {
    }

    /** {@code slice} without the batches at or past {@code highWatermark}. */
    public static FileSlice below(FileSlice slice, long highWatermark) {
        ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
        long position = slice.position();
        long end = slice.position() + slice.sizeInBytes();
        try {
            while (position + HEADER_BYTES <= end) {
                header.clear();
                readFully(slice, header, position);
                long baseOffset = header.getLong(0);
                if (baseOffset >= highWatermark) {
                    break;
                }
                position += HEADER_BYTES + header.getInt(8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long kept = Math.min(position, end) - slice.position();
        return kept == slice.sizeInBytes() ? slice : new FileSlice(slice.channel(), slice.position(), (int) kept);
    }

    private static void readFully(FileSlice slice, ByteBuffer buffer, long position) throws IOException {
        while (buffer.hasRemaining()) {
            if (slice.channel().read(buffer, position + buffer.position()) < 0) {
                throw new IOException("The segment ended inside a batch header at " + position);
            }
        }
    }
}
