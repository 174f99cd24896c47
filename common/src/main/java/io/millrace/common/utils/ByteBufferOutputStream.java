package io.millrace.common.utils;

import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * An {@link OutputStream} over a {@link ByteBuffer} that grows (by at least half) when a write
 * does not fit. {@link #buffer()} may return a different buffer after a write; ask for it again.
 * Not thread-safe.
 */
public final class ByteBufferOutputStream extends OutputStream {

    private static final float GROWTH = 1.5f;

    private ByteBuffer buffer;

    public ByteBufferOutputStream(int initialCapacity) {
        this(ByteBuffer.allocate(initialCapacity));
    }

    public ByteBufferOutputStream(ByteBuffer buffer) {
        this.buffer = buffer;
    }

    @Override
    public void write(int b) {
        ensureRemaining(1);
        buffer.put((byte) b);
    }

    @Override
    public void write(byte[] bytes, int off, int len) {
        ensureRemaining(len);
        buffer.put(bytes, off, len);
    }

    public void write(ByteBuffer source) {
        ensureRemaining(source.remaining());
        buffer.put(source);
    }

    public ByteBuffer buffer() {
        return buffer;
    }

    public int position() {
        return buffer.position();
    }

    public void position(int position) {
        ensureRemaining(position - buffer.position());
        buffer.position(position);
    }

    /** Makes room for {@code needed} more bytes after the position, growing the buffer if required. */
    public void ensureRemaining(int needed) {
        if (needed > buffer.remaining()) {
            grow(buffer.position() + needed);
        }
    }

    private void grow(int minCapacity) {
        int capacity = Math.max((int) (buffer.capacity() * GROWTH), minCapacity);
        ByteBuffer bigger = buffer.isDirect() ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
        buffer.flip();
        bigger.put(buffer);
        buffer = bigger;
    }
}
