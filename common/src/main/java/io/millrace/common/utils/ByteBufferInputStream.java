package io.millrace.common.utils;

import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * An {@link InputStream} over the bytes between a buffer's position and limit. It reads through
 * its own duplicate, so the caller's position and limit never move. Not thread-safe.
 */
public final class ByteBufferInputStream extends InputStream {

    private final ByteBuffer buffer;

    public ByteBufferInputStream(ByteBuffer buffer) {
        this.buffer = buffer.duplicate();
    }

    @Override
    public int read() {
        return buffer.hasRemaining() ? buffer.get() & 0xff : -1;
    }

    @Override
    public int read(byte[] bytes, int off, int len) {
        if (len == 0) {
            return 0;
        }
        if (!buffer.hasRemaining()) {
            return -1;
        }
        int n = Math.min(len, buffer.remaining());
        buffer.get(bytes, off, n);
        return n;
    }

    @Override
    public long skip(long n) {
        int skipped = (int) Math.max(0, Math.min(n, buffer.remaining()));
        buffer.position(buffer.position() + skipped);
        return skipped;
    }

    @Override
    public int available() {
        return buffer.remaining();
    }
}
