package io.millrace.common.compress;

import java.io.IOException;
import java.io.OutputStream;
import net.jpountz.lz4.LZ4Compressor;

/**
 * Writes one LZ4 frame the way Kafka does for record batch v2 (see {@link Lz4Frame}): FLG 0x60,
 * BD 0x40, 64 KB blocks, no checksums, a block kept uncompressed when LZ4 would not make it smaller.
 * The descriptor goes out at construction, each block when it is full or on {@link #flush()},
 * and the end mark on {@link #close()}; this order is what makes the bytes equal to Kafka's.
 *
 * <p>Not thread-safe.
 */
final class Lz4FrameOutputStream extends OutputStream {

    private final OutputStream out;
    private final LZ4Compressor compressor;
    private final byte[] block;
    private final byte[] compressed;
    private final byte[] intBytes = new byte[Lz4Frame.INT_LENGTH];
    private int blockLength;
    private boolean closed;

    Lz4FrameOutputStream(OutputStream out, int level) throws IOException {
        this.out = out;
        this.compressor = Lz4Frame.compressor(level);
        this.block = new byte[Lz4Frame.blockMaximumSize(Lz4Frame.BLOCK_SIZE_ID_64KB)];
        this.compressed = new byte[compressor.maxCompressedLength(block.length)];
        writeDescriptor();
    }

    private void writeDescriptor() throws IOException {
        byte[] header = new byte[Lz4Frame.MIN_HEADER_LENGTH];
        putIntLE(header, 0, Lz4Frame.MAGIC);
        header[4] = Lz4Frame.kafkaFlg();
        header[5] = Lz4Frame.bd(Lz4Frame.BLOCK_SIZE_ID_64KB);
        header[6] = Lz4Frame.headerChecksum(header, Lz4Frame.MAGIC_LENGTH, 2);
        out.write(header);
    }

    @Override
    public void write(int b) throws IOException {
        ensureOpen();
        if (blockLength == block.length) {
            writeBlock();
        }
        block[blockLength++] = (byte) b;
    }

    @Override
    public void write(byte[] bytes, int off, int len) throws IOException {
        ensureOpen();
        while (len > 0) {
            if (blockLength == block.length) {
                writeBlock();
            }
            int n = Math.min(len, block.length - blockLength);
            System.arraycopy(bytes, off, block, blockLength, n);
            blockLength += n;
            off += n;
            len -= n;
        }
    }

    /** Ends the current block early, as Kafka's stream does, so the bytes so far reach {@code out}. */
    @Override
    public void flush() throws IOException {
        if (!closed) {
            writeBlock();
        }
        out.flush();
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        writeBlock();
        writeIntLE(0);
        closed = true;
        out.close();
    }

    private void writeBlock() throws IOException {
        if (blockLength == 0) {
            return;
        }
        int length = compressor.compress(block, 0, blockLength, compressed, 0);
        if (length >= blockLength) {
            writeIntLE(blockLength | Lz4Frame.STORED_BLOCK_FLAG);
            out.write(block, 0, blockLength);
        } else {
            writeIntLE(length);
            out.write(compressed, 0, length);
        }
        blockLength = 0;
    }

    private void writeIntLE(int value) throws IOException {
        putIntLE(intBytes, 0, value);
        out.write(intBytes);
    }

    private static void putIntLE(byte[] bytes, int offset, int value) {
        bytes[offset] = (byte) value;
        bytes[offset + 1] = (byte) (value >>> 8);
        bytes[offset + 2] = (byte) (value >>> 16);
        bytes[offset + 3] = (byte) (value >>> 24);
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("The LZ4 frame is already closed");
        }
    }
}
