package io.millrace.broker.network;

import io.netty.buffer.ByteBufAllocator;
import java.net.InetSocketAddress;

/**
 * One request in progress and the connection it came on. The three completing methods are
 * thread-safe; exactly one of them must be called, once (see {@link RequestHandler}). The first
 * call releases the request payload; a second call throws {@link IllegalStateException} (and
 * releases the {@link ResponseSend} it was given).
 */
public interface RequestContext {

    /** {@code localHost:localPort-remoteHost:remotePort-n}, unique within a server; for logs and quotas. */
    String connectionId();

    /** The listener the connection came through, e.g. {@code PLAINTEXT}. */
    String listenerName();

    InetSocketAddress remoteAddress();

    InetSocketAddress localAddress();

    /** {@link io.millrace.common.utils.Time#nanoseconds()} when the request's last byte was read. */
    long receiveTimeNanos();

    /** The connection's allocator, pooled and direct by default: the one to build responses with. */
    ByteBufAllocator alloc();

    /** False once the client disconnected or the connection was closed; a handler may skip work then. */
    boolean isConnectionOpen();

    /**
     * Completes the request with a response. The network layer takes ownership of {@code response}
     * and releases it on every path: written, failed, or the connection already closed.
     */
    void sendResponse(ResponseSend response);

    /** Completes the request without a response (Produce with acks=0); the next request is read. */
    void noResponse();

    /** Completes the request by closing the connection, e.g. for a request that cannot be parsed. */
    void closeConnection();
}
