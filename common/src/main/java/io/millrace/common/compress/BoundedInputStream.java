package io.millrace.common.compress;

import io.millrace.common.errors.CorruptRecordException;
import java.io.IOException;
import java.io.InputStream;

/**
 * The guard around every decompressing stream: it lets at most {@code maxBytes} through and turns
 * whatever the codec throws on bad input (IOException, the libraries' runtime exceptions) into
 * {@link CorruptRecordException}, so readers of untrusted batches handle one exception family.
 * Closing it closes the codec stream, which for zstd frees native memory. Not thread-safe.
 */
final class BoundedInputStream extends InputStream {

    private final InputStream codec;
    private final long maxBytes;
    private long produced;

    BoundedInputStream(InputStream codec, long maxBytes) {
        this.codec = codec;
        this.maxBytes = maxBytes;
    }

    @Override
    public int read() {
        try {
            int b = codec.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        } catch (IOException | RuntimeException e) {
            throw corrupt(e);
        }
    }

    @Override
    public int read(byte[] bytes, int off, int len) {
        try {
            int n = codec.read(bytes, off, len);
            if (n > 0) {
                count(n);
            }
            return n;
        } catch (IOException | RuntimeException e) {
            throw corrupt(e);
        }
    }

    private void count(int n) {
        produced += n;
        if (produced > maxBytes) {
            throw new CorruptRecordException("Compressed records inflate past the limit of " + maxBytes + " bytes");
        }
    }

    @Override
    public void close() {
        try {
            codec.close();
        } catch (IOException | RuntimeException e) {
            throw corrupt(e);
        }
    }

    static CorruptRecordException corrupt(Exception e) {
        if (e instanceof CorruptRecordException) {
            return (CorruptRecordException) e;
        }
        return new CorruptRecordException("Compressed records do not decompress: " + e, e);
    }
}
