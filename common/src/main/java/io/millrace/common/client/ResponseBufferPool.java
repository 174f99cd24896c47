package io.millrace.common.client;

import java.nio.ByteBuffer;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * Direct buffers that large responses are read into straight from the socket, kept for reuse once
 * their reader is done with them. A response read into a heap array costs two passes over its bytes
 * besides the kernel's copy: zeroing the new array, and copying from the socket's direct read buffer
 * into it. A pooled direct buffer needs neither: the socket read lands where the response is parsed,
 * and nothing is zeroed. Only a reader that knows when it is done with a response asks for one (see
 * {@link ResponseLease}); a buffer never given back is freed by the garbage collector like any other.
 * Thread-safe: buffers are taken on an I/O thread and given back by the reading thread.
 */
public final class ResponseBufferPool {

    /** Capacities are rounded up to this, so that responses of about the same size share buffers. */
    static final int UNIT_BYTES = 64 * 1024;
    /** Buffers above this are used once, not kept: a pool should not hoard a rare 50 MiB answer. */
    static final int MAX_KEPT_BYTES = 16 * 1024 * 1024;

    private final ArrayBlockingQueue<ByteBuffer> idle;

    /** A pool that keeps at most {@code maxIdle} buffers between uses. */
    public ResponseBufferPool(int maxIdle) {
        if (maxIdle < 1) {
            throw new IllegalArgumentException("A pool must keep at least one buffer: " + maxIdle);
        }
        this.idle = new ArrayBlockingQueue<>(maxIdle);
    }

    /** A buffer for {@code size} bytes: position 0, limit {@code size}, contents undefined. */
    ByteBuffer take(int size) {
        for (ByteBuffer buffer = idle.poll(); buffer != null; buffer = idle.poll()) {
            if (buffer.capacity() >= size) {
                return buffer.clear().limit(size);
            }
            // too small for this response: dropped, and a larger one takes its place when given back
        }
        long rounded = ((long) size + UNIT_BYTES - 1) / UNIT_BYTES * UNIT_BYTES;
        return ByteBuffer.allocateDirect((int) Math.min(Integer.MAX_VALUE, rounded)).limit(size);
    }

    /** Takes {@code buffer} back for a later response; its contents may be overwritten from now on. */
    void giveBack(ByteBuffer buffer) {
        if (buffer.capacity() <= MAX_KEPT_BYTES) {
            idle.offer(buffer);
        }
    }

    /** Buffers kept between uses right now. */
    public int idleBuffers() {
        return idle.size();
    }
}
