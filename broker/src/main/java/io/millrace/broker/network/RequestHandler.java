package io.millrace.broker.network;

import io.netty.buffer.ByteBuf;

/**
 * What the broker does with a request: the network layer reads frames and calls this on one of
 * {@code num.io.threads} request threads, never on a network thread, so it may block on disk
 * or locks (it holds up only its own I/O thread).
 *
 * <p><b>Completing.</b> Every call must lead to exactly one of
 * {@link RequestContext#sendResponse}, {@link RequestContext#noResponse()} or
 * {@link RequestContext#closeConnection()}, before or after {@code handle} returns and from any
 * thread. Until then the connection reads nothing more: a connection has one request in progress
 * at a time, so its responses go out in request order. If {@code handle} throws, the network layer
 * logs it and closes the connection (unless the request was already completed).
 *
 * <p><b>The payload</b> is the frame after its 4-byte size: {@code payload.readableBytes()} is
 * that size, starting with the request header. The network layer owns it and releases it when
 * the request completes; do not release it. It stays valid (and writable, e.g. to rewrite batch
 * offsets in place) until the completing call; retain it (and later release it) or copy from it
 * to keep bytes longer. {@code payload.nioBuffer()} views it as a {@code ByteBuffer} without
 * copying, under the same rule.
 */
@FunctionalInterface
public interface RequestHandler {

    void handle(RequestContext context, ByteBuf payload);

    /**
     * Offered each request first, on the network thread that read it, before it goes to a request
     * thread: a handler that can carry it out at once, without blocking and in a few microseconds
     * (an append to the page cache, say), may do so here and save the two thread hand-offs of the
     * request thread's round trip. It returns true if it took the request, which it then completes
     * exactly as {@link #handle} would (the completion is carried out after this returns, so the
     * one-request-at-a-time order of a connection holds). It returns false, having completed
     * nothing and left the payload's indexes as they were, to have the request handed to a request
     * thread as usual. If it throws, the connection is closed, as when {@link #handle} throws.
     *
     * <p>This must never wait: on disk, for a lock held by another thread, or for another request.
     * Every connection this network thread serves waits while it runs.
     */
    default boolean handleOnNetworkThread(RequestContext context, ByteBuf payload) {
        return false;
    }
}
