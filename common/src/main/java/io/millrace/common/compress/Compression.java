package io.millrace.common.compress;

import com.github.luben.zstd.RecyclingBufferPool;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import io.millrace.common.errors.CorruptRecordException;
import io.millrace.common.record.CompressionType;
import io.millrace.common.utils.ByteBufferInputStream;
import io.millrace.common.utils.ByteBufferOutputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.xerial.snappy.SnappyOutputStream;

/**
 * The one place that sees the compression libraries: wraps streams for a batch's records.
 *
 * <p>Output is wrapped exactly as Kafka 4.3's {@code Compression} implementations wrap it (same
 * stream stack, buffer sizes and default levels), because the bytes of a compressed batch depend
 * on them and Millrace's batches must equal Kafka's byte for byte:
 * <ul>
 *   <li>gzip: a 16 KB {@code BufferedOutputStream} over a {@code GZIPOutputStream} with an 8 KB
 *       deflate buffer, level -1 (zlib's default, 6);</li>
 *   <li>snappy: snappy-java's {@code SnappyOutputStream} with its 32 KB blocks;</li>
 *   <li>lz4: an LZ4 frame with 64 KB independent blocks, no checksums; level 9 (the default)
 *       uses LZ4's fast compressor, any other level the high-compression one;</li>
 *   <li>zstd: a 16 KB {@code BufferedOutputStream} over zstd-jni's stream, level 3.</li>
 * </ul>
 *
 * <p>Input is bounded: every decompressing stream lets at most {@code maxBytes} through and raises
 * only {@link CorruptRecordException} on bad bytes, so a decompression bomb or garbage costs at
 * most {@code maxBytes} of memory and never escapes as another exception.
 */
public final class Compression {

    /** zlib's default level, which Kafka's {@code compression.gzip.level} defaults to. */
    public static final int GZIP_DEFAULT_LEVEL = Deflater.DEFAULT_COMPRESSION;
    public static final int LZ4_DEFAULT_LEVEL = Lz4Frame.DEFAULT_LEVEL;
    public static final int ZSTD_DEFAULT_LEVEL = 3;

    private static final int GZIP_DEFLATE_BUFFER = 8 * 1024;
    private static final int GZIP_WRITE_BUFFER = 16 * 1024;
    private static final int GZIP_INFLATE_BUFFER = 8 * 1024;
    private static final int ZSTD_WRITE_BUFFER = 16 * 1024;
    private static final int ZSTD_MIN_LEVEL = -131072;
    private static final int ZSTD_MAX_LEVEL = 22;
    /** First guess for the inflated size of a batch, as a multiple of its compressed size. */
    private static final int EXPECTED_RATIO = 4;
    private static final int MIN_INITIAL_CAPACITY = 512;

    private Compression() {
    }

    /** The level Kafka uses when {@code compression.<type>.level} is not set; 0 for codecs without levels. */
    public static int defaultLevel(CompressionType type) {
        switch (type) {
            case GZIP: return GZIP_DEFAULT_LEVEL;
            case LZ4: return LZ4_DEFAULT_LEVEL;
            case ZSTD: return ZSTD_DEFAULT_LEVEL;
            default: return 0;
        }
    }

    /** A stream that compresses what is written to it into {@code out}; closing it finishes the frame. */
    public static OutputStream wrapForOutput(CompressionType type, ByteBufferOutputStream out) {
        return wrapForOutput(type, out, defaultLevel(type));
    }

    /**
     * As {@link #wrapForOutput(CompressionType, ByteBufferOutputStream)} at a given level (gzip 1-9
     * or -1, lz4 1-17, zstd -131072..22; ignored for none and snappy). For {@code NONE} it returns
     * {@code out} itself. A zstd stream holds native memory until it is closed.
     */
    public static OutputStream wrapForOutput(CompressionType type, ByteBufferOutputStream out, int level) {
        try {
            switch (type) {
                case NONE: return out;
                case GZIP: return new BufferedOutputStream(new LeveledGzipOutputStream(out, checkGzipLevel(level)), GZIP_WRITE_BUFFER);
                case SNAPPY: return new SnappyOutputStream(out);
                case LZ4: return new Lz4FrameOutputStream(out, checkLevel(type, level, Lz4Frame.MIN_LEVEL, Lz4Frame.MAX_LEVEL));
                case ZSTD: return new BufferedOutputStream(zstdOutput(out, level), ZSTD_WRITE_BUFFER);
                default: throw new IllegalArgumentException("Unknown compression type " + type);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static OutputStream zstdOutput(OutputStream out, int level) throws IOException {
        checkLevel(CompressionType.ZSTD, level, ZSTD_MIN_LEVEL, ZSTD_MAX_LEVEL);
        return new ZstdOutputStreamNoFinalizer(out, RecyclingBufferPool.INSTANCE, level);
    }

    /**
     * A stream that decompresses the bytes between {@code in}'s position and limit (which it does
     * not move). Reads raise {@link CorruptRecordException} on bad bytes; there is no bound on
     * the output, so the caller limits what it reads. Close it: zstd holds native memory.
     */
    public static InputStream wrapForInput(CompressionType type, ByteBuffer in) {
        return wrapForInput(type, in, Long.MAX_VALUE);
    }

    /**
     * As {@link #wrapForInput(CompressionType, ByteBuffer)}, but a read that would take the output
     * past {@code maxBytes} raises {@link CorruptRecordException}.
     */
    public static InputStream wrapForInput(CompressionType type, ByteBuffer in, long maxBytes) {
        try {
            return new BoundedInputStream(codecInput(type, in, maxBytes), maxBytes);
        } catch (IOException | RuntimeException e) {
            throw BoundedInputStream.corrupt(e);
        }
    }

    private static InputStream codecInput(CompressionType type, ByteBuffer in, long maxBytes) throws IOException {
        switch (type) {
            case NONE: return new ByteBufferInputStream(in);
            case GZIP: return new GZIPInputStream(new ByteBufferInputStream(in), GZIP_INFLATE_BUFFER);
            case SNAPPY: return new SnappyFrameInputStream(in, maxBytes);
            case LZ4: return new Lz4FrameInputStream(in);
            case ZSTD: return new ZstdInputStreamNoFinalizer(new ByteBufferInputStream(in), RecyclingBufferPool.INSTANCE);
            default: throw new IllegalArgumentException("Unknown compression type " + type);
        }
    }

    /**
     * Decompresses the bytes between {@code in}'s position and limit into one new heap buffer
     * (position 0, limit the decompressed size). The buffer starts near four times the input and
     * doubles as needed, never past {@code maxBytes}: more output than that, or bytes that do not
     * decompress, raise {@link CorruptRecordException}.
     */
    public static ByteBuffer decompress(CompressionType type, ByteBuffer in, int maxBytes) {
        try (InputStream stream = wrapForInput(type, in, maxBytes)) {
            return readFully(stream, initialCapacity(in.remaining(), maxBytes), maxBytes);
        } catch (IOException e) {
            throw BoundedInputStream.corrupt(e);
        }
    }

    private static int initialCapacity(int compressedSize, int maxBytes) {
        long guess = Math.max(MIN_INITIAL_CAPACITY, (long) compressedSize * EXPECTED_RATIO);
        return (int) Math.min(guess, maxBytes);
    }

    /**
     * Reads the stream to its end. When the array is full a one-byte read tells whether more is
     * coming; past {@code maxBytes} the stream itself throws.
     */
    private static ByteBuffer readFully(InputStream stream, int initialCapacity, int maxBytes) throws IOException {
        byte[] bytes = new byte[initialCapacity];
        int size = 0;
        while (true) {
            if (size == bytes.length) {
                int b = stream.read();
                if (b < 0) {
                    break;
                }
                bytes = Arrays.copyOf(bytes, grownCapacity(bytes.length, maxBytes));
                bytes[size++] = (byte) b;
            }
            int n = stream.read(bytes, size, bytes.length - size);
            if (n < 0) {
                break;
            }
            size += n;
        }
        return ByteBuffer.wrap(bytes, 0, size).slice();
    }

    /** Doubles, but never past the limit; the array must still grow by at least one byte. */
    private static int grownCapacity(int capacity, int maxBytes) {
        long doubled = Math.max(MIN_INITIAL_CAPACITY, 2L * capacity);
        return (int) Math.max(capacity + 1L, Math.min(doubled, maxBytes));
    }

    private static int checkGzipLevel(int level) {
        return level == GZIP_DEFAULT_LEVEL ? level : checkLevel(CompressionType.GZIP, level, Deflater.BEST_SPEED, Deflater.BEST_COMPRESSION);
    }

    private static int checkLevel(CompressionType type, int level, int min, int max) {
        if (level < min || level > max) {
            throw new IllegalArgumentException("Level " + level + " is outside " + min + ".." + max + " for " + type.configName);
        }
        return level;
    }

    /** Kafka sets the deflater's level right after the gzip header; so do we, for equal bytes. */
    private static final class LeveledGzipOutputStream extends GZIPOutputStream {
        LeveledGzipOutputStream(OutputStream out, int level) throws IOException {
            super(out, GZIP_DEFLATE_BUFFER);
            def.setLevel(level);
        }
    }
}
