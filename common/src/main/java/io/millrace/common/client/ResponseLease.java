package io.millrace.common.client;

import java.nio.ByteBuffer;

/**
 * The buffer one response is read into, lent by a {@link ResponseBufferPool} and given back by
 * whoever reads the response. Passed with a request ({@link NetworkClient#send(Node,
 * io.millrace.common.protocol.ApiMessage, int, ResponseLease)}); the parsed response's records are
 * then views of a pooled buffer, valid until {@link #release()}. A lease that is never released
 * costs only the reuse. Not for concurrent releases: one reader owns a response.
 */
public final class ResponseLease {

    private final ResponseBufferPool pool;
    /** Written by the I/O thread before the response completes; read after it, by the reader. */
    private ByteBuffer frame;

    public ResponseLease(ResponseBufferPool pool) {
        this.pool = pool;
    }

    /** The buffer for a response of {@code size} bytes. I/O thread only, once per lease. */
    ByteBuffer allocate(int size) {
        if (frame != null) {
            throw new IllegalStateException("A lease holds one response");
        }
        frame = pool.take(size);
        return frame;
    }

    /**
     * Gives the response's buffer back to the pool: every view of the response, records included,
     * is invalid from here on. Does nothing when nothing was read into a pooled buffer, or twice.
     */
    public void release() {
        ByteBuffer held = frame;
        frame = null;
        if (held != null) {
            pool.giveBack(held);
        }
    }
}
