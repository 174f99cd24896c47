package io.millrace.common.compress;

import io.millrace.common.errors.CorruptRecordException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import net.jpountz.lz4.LZ4Exception;

/**
 * Reads one LZ4 frame (see {@link Lz4Frame}) from the bytes between a buffer's position and limit,
 * one block at a time. It accepts what Kafka's reader accepts: version 1, independent blocks, 64 KB
 * to 4 MB blocks, optional content size, block checksums (verified) and content checksum (skipped:
 * the batch CRC already covers every byte). Unlike Kafka's reader it rejects bytes after the frame.
 *
 * <p>Damaged input raises {@link CorruptRecordException} from the constructor or from a read;
 * nothing else. Memory is bounded by one block buffer of at most 4 MB. Not thread-safe.
 */
final class Lz4FrameInputStream extends InputStream {

    private final ByteBuffer in;
    private final int end;
    private final boolean blockChecksums;
    private final boolean contentChecksum;
    private final int maxBlockSize;
    private int position;
    private ByteBuffer scratch;
    private ByteBuffer block = ByteBuffer.allocate(0);
    private boolean finished;

    Lz4FrameInputStream(ByteBuffer source) {
        this.in = source.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        this.position = in.position();
        this.end = in.limit();
        require(Lz4Frame.MIN_HEADER_LENGTH, "frame descriptor");
        if (in.getInt(position) != Lz4Frame.MAGIC) {
            throw new CorruptRecordException("LZ4 frame has magic " + Integer.toHexString(in.getInt(position)));
        }
        int flg = in.get(position + 4) & 0xFF;
        int bd = in.get(position + 5) & 0xFF;
        checkFlg(flg);
        this.blockChecksums = (flg & Lz4Frame.FLG_BLOCK_CHECKSUM) != 0;
        this.contentChecksum = (flg & Lz4Frame.FLG_CONTENT_CHECKSUM) != 0;
        this.maxBlockSize = blockMaximumSize(bd);
        int descriptorLength = 2 + ((flg & Lz4Frame.FLG_CONTENT_SIZE) != 0 ? Lz4Frame.CONTENT_SIZE_LENGTH : 0);
        checkHeaderChecksum(descriptorLength);
    }

    private static void checkFlg(int flg) {
        if (flg >>> Lz4Frame.FLG_VERSION_SHIFT != Lz4Frame.VERSION) {
            throw new CorruptRecordException("LZ4 frame version " + (flg >>> Lz4Frame.FLG_VERSION_SHIFT) + " is not 1");
        }
        if ((flg & Lz4Frame.FLG_RESERVED) != 0) {
            throw new CorruptRecordException("LZ4 frame sets reserved or dictionary bits: FLG " + flg);
        }
        if ((flg & Lz4Frame.FLG_BLOCK_INDEPENDENCE) == 0) {
            throw new CorruptRecordException("LZ4 frames with dependent blocks are not supported");
        }
    }

    private static int blockMaximumSize(int bd) {
        int id = (bd >>> Lz4Frame.BD_SIZE_ID_SHIFT) & Lz4Frame.BD_SIZE_ID_MASK;
        if ((bd & Lz4Frame.BD_RESERVED) != 0 || id < Lz4Frame.MIN_BLOCK_SIZE_ID) {
            throw new CorruptRecordException("LZ4 frame has an invalid block descriptor " + bd);
        }
        return Lz4Frame.blockMaximumSize(id);
    }

    private void checkHeaderChecksum(int descriptorLength) {
        int descriptorStart = position + Lz4Frame.MAGIC_LENGTH;
        require(Lz4Frame.MAGIC_LENGTH + descriptorLength + 1, "frame descriptor");
        int expected = (Lz4Frame.XXHASH.hash(in, descriptorStart, descriptorLength, 0) >> 8) & 0xFF;
        int stored = in.get(descriptorStart + descriptorLength) & 0xFF;
        if (expected != stored) {
            throw new CorruptRecordException("LZ4 frame descriptor checksum is " + stored + ", expected " + expected);
        }
        position = descriptorStart + descriptorLength + 1;
    }

    @Override
    public int read() {
        if (!ensureBlock()) {
            return -1;
        }
        return block.get() & 0xFF;
    }

    @Override
    public int read(byte[] bytes, int off, int len) {
        if (len == 0) {
            return 0;
        }
        if (!ensureBlock()) {
            return -1;
        }
        int n = Math.min(len, block.remaining());
        block.get(bytes, off, n);
        return n;
    }

    /** Makes sure the current block has bytes left, reading blocks as needed; false at the end. */
    private boolean ensureBlock() {
        while (!block.hasRemaining()) {
            if (finished) {
                return false;
            }
            readBlock();
        }
        return true;
    }

    private void readBlock() {
        require(Lz4Frame.INT_LENGTH, "block size");
        int word = in.getInt(position);
        position += Lz4Frame.INT_LENGTH;
        if (word == 0) {
            finish();
            return;
        }
        int size = word & ~Lz4Frame.STORED_BLOCK_FLAG;
        if (size > maxBlockSize) {
            throw new CorruptRecordException("LZ4 block of " + size + " bytes exceeds the frame's maximum " + maxBlockSize);
        }
        require(size + (blockChecksums ? Lz4Frame.INT_LENGTH : 0), "block");
        block = (word & Lz4Frame.STORED_BLOCK_FLAG) != 0 ? in.slice(position, size) : decompress(size);
        verifyBlockChecksum(size);
        position += size + (blockChecksums ? Lz4Frame.INT_LENGTH : 0);
    }

    private ByteBuffer decompress(int size) {
        if (scratch == null) {
            scratch = ByteBuffer.allocate(maxBlockSize);
        }
        try {
            int n = Lz4Frame.DECOMPRESSOR.decompress(in, position, size, scratch, 0, maxBlockSize);
            return scratch.duplicate().position(0).limit(n);
        } catch (LZ4Exception | IndexOutOfBoundsException e) {
            throw new CorruptRecordException("LZ4 block at byte " + position + " does not decompress", e);
        }
    }

    private void verifyBlockChecksum(int size) {
        if (!blockChecksums) {
            return;
        }
        int expected = Lz4Frame.XXHASH.hash(in, position, size, 0);
        if (in.getInt(position + size) != expected) {
            throw new CorruptRecordException("LZ4 block checksum mismatch at byte " + position);
        }
    }

    private void finish() {
        if (contentChecksum) {
            require(Lz4Frame.INT_LENGTH, "content checksum");
            position += Lz4Frame.INT_LENGTH;
        }
        if (position != end) {
            throw new CorruptRecordException((end - position) + " bytes follow the LZ4 frame's end mark");
        }
        finished = true;
    }

    private void require(int bytes, String what) {
        if (bytes > end - position) {
            throw new CorruptRecordException("LZ4 frame ends inside its " + what + ": " + bytes + " bytes needed, "
                + (end - position) + " left");
        }
    }
}
