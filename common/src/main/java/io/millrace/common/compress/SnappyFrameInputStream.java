package io.millrace.common.compress;

import io.millrace.common.errors.CorruptRecordException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import org.xerial.snappy.Snappy;
import org.xerial.snappy.SnappyError;

/**
 * Reads the snappy-java stream framing that Kafka's producers write with {@code SnappyOutputStream}:
 *
 * <pre>
 * Stream =&gt;
 *   Magic              8 bytes  0x82 'S' 'N' 'A' 'P' 'P' 'Y' 0x00
 *   Version            int32    1
 *   CompatibleVersion  int32    1
 *   Chunks             [ChunkLength int32 BE, raw snappy block of ChunkLength bytes]
 * </pre>
 *
 * A chunk that starts with the magic's first four bytes (a negative length) begins another stream
 * header, as when two streams are concatenated. Each raw block begins with its uncompressed length
 * as a varint.
 *
 * <p>Why not {@code SnappyInputStream}: it sizes its buffers from the lengths in the bytes (up to
 * 512 MB for a chunk, any int for its content), throws {@code Error}s on bad sizes and silently
 * ignores a torn chunk length. This reader checks every length against the bytes that are really
 * there and against {@code maxBytes} before it allocates, and raises only
 * {@link CorruptRecordException}. Not thread-safe.
 */
final class SnappyFrameInputStream extends InputStream {

    private static final byte[] MAGIC = {(byte) 0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0};
    private static final int HEADER_LENGTH = MAGIC.length + 4 + 4;
    private static final int CHUNK_LENGTH_LENGTH = 4;
    private static final int MAGIC_HEAD = ByteBuffer.wrap(MAGIC).getInt();
    /**
     * The most a raw snappy block can expand: a 3-byte copy element yields at most 64 bytes, so
     * no block decodes to more than 64/3 of its length.
     */
    private static final int MAX_EXPANSION = 22;

    private final ByteBuffer in;
    private final int end;
    private long budget;
    private int position;
    private byte[] chunk = new byte[0];
    private int chunkPosition;
    private int chunkLimit;
    private byte[] compressedCopy;

    /** @param maxBytes the most this stream may produce; a chunk that would pass it is corrupt */
    SnappyFrameInputStream(ByteBuffer source, long maxBytes) {
        this.in = source.duplicate();
        this.position = in.position();
        this.end = in.limit();
        this.budget = maxBytes;
        readStreamHeader();
    }

    private void readStreamHeader() {
        if (end - position < HEADER_LENGTH) {
            throw new CorruptRecordException("Snappy stream of " + (end - position) + " bytes is shorter than its header");
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (in.get(position + i) != MAGIC[i]) {
                throw new CorruptRecordException("Snappy stream does not start with the snappy-java magic");
            }
        }
        position += HEADER_LENGTH;
    }

    @Override
    public int read() {
        if (!ensureChunk()) {
            return -1;
        }
        return chunk[chunkPosition++] & 0xFF;
    }

    @Override
    public int read(byte[] bytes, int off, int len) {
        if (len == 0) {
            return 0;
        }
        if (!ensureChunk()) {
            return -1;
        }
        int n = Math.min(len, chunkLimit - chunkPosition);
        System.arraycopy(chunk, chunkPosition, bytes, off, n);
        chunkPosition += n;
        return n;
    }

    private boolean ensureChunk() {
        while (chunkPosition == chunkLimit) {
            if (position == end) {
                return false;
            }
            readChunk();
        }
        return true;
    }

    private void readChunk() {
        if (end - position < CHUNK_LENGTH_LENGTH) {
            throw new CorruptRecordException("Snappy stream ends inside a chunk length");
        }
        int length = in.getInt(position);
        if (length == MAGIC_HEAD) {
            readStreamHeader();
            return;
        }
        position += CHUNK_LENGTH_LENGTH;
        if (length <= 0 || length > end - position) {
            throw new CorruptRecordException("Snappy chunk length " + length + " but " + (end - position) + " bytes left");
        }
        uncompress(length);
        position += length;
    }

    private void uncompress(int length) {
        byte[] source = sourceArray(length);
        int offset = in.hasArray() ? in.arrayOffset() + position : 0;
        try {
            int size = Snappy.uncompressedLength(source, offset, length);
            checkSize(size, length);
            if (chunk.length < size) {
                chunk = new byte[size];
            }
            int n = Snappy.uncompress(source, offset, length, chunk, 0);
            if (n != size) {
                throw new CorruptRecordException("Snappy chunk claims " + size + " bytes but holds " + n);
            }
            budget -= size;
            chunkPosition = 0;
            chunkLimit = size;
        } catch (IOException | SnappyError | RuntimeException e) {
            throw e instanceof CorruptRecordException ? (CorruptRecordException) e
                : new CorruptRecordException("Snappy chunk at byte " + position + " does not decompress", e);
        }
    }

    /** The array holding the chunk: the buffer's own when it has one, else a copy. */
    private byte[] sourceArray(int length) {
        if (in.hasArray()) {
            return in.array();
        }
        if (compressedCopy == null || compressedCopy.length < length) {
            compressedCopy = new byte[length];
        }
        in.get(position, compressedCopy, 0, length);
        return compressedCopy;
    }

    private void checkSize(int size, int length) {
        if (size < 0 || size > (long) length * MAX_EXPANSION) {
            throw new CorruptRecordException("Snappy chunk of " + length + " bytes claims " + (size & 0xFFFFFFFFL)
                + " uncompressed bytes");
        }
        if (size > budget) {
            throw new CorruptRecordException("Snappy stream inflates past its limit of bytes");
        }
    }
}
