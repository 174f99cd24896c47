package io.millrace.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * A request read from a {@link ConnectionHandler}'s connection. It owns the payload until the
 * request completes. Completion may come from any thread: the first completing call wins (a
 * compare-and-set), releases the payload at once, records what to do and hands itself to the
 * connection's event loop as the task that does it ({@link #run()}), and then as the listener of
 * the response write ({@link #operationComplete}). Being its own task and listener saves two
 * allocations per request; the object itself is allocated per request on purpose, since a handler
 * may hold a context across threads and reusing it would let a late call answer the wrong request.
 */
final class ChannelRequestContext implements RequestContext, Runnable, ChannelFutureListener {

    enum Completion { RESPONSE, NO_RESPONSE, CLOSE, ABANDONED }

    private static final AtomicIntegerFieldUpdater<ChannelRequestContext> COMPLETED =
        AtomicIntegerFieldUpdater.newUpdater(ChannelRequestContext.class, "completed");

    private final ConnectionHandler connection;
    private final long receiveTimeNanos;
    /** The frame's size, reserved in the request memory until the payload is released. */
    private final int frameBytes;
    private ByteBuf payload;
    private long enqueueTimeNanos;
    private volatile int completed;
    // Written by the completing thread before the hop to the event loop, which publishes them.
    private Completion completion;
    private ResponseSend response;

    ChannelRequestContext(ConnectionHandler connection, ByteBuf payload, long receiveTimeNanos) {
        this.connection = connection;
        this.payload = payload;
        this.frameBytes = payload.readableBytes();
        this.receiveTimeNanos = receiveTimeNanos;
    }

    ByteBuf payload() {
        return payload;
    }

    void markEnqueued(long nanos) {
        enqueueTimeNanos = nanos;
    }

    long enqueueTimeNanos() {
        return enqueueTimeNanos;
    }

    Completion completion() {
        return completion;
    }

    ResponseSend response() {
        return response;
    }

    @Override
    public String connectionId() {
        return connection.connectionId();
    }

    @Override
    public String listenerName() {
        return connection.listenerName();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return connection.remoteAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return connection.localAddress();
    }

    @Override
    public long receiveTimeNanos() {
        return receiveTimeNanos;
    }

    @Override
    public ByteBufAllocator alloc() {
        return connection.alloc();
    }

    @Override
    public boolean isConnectionOpen() {
        return connection.isOpen();
    }

    @Override
    public void sendResponse(ResponseSend send) {
        Objects.requireNonNull(send, "response");
        if (!tryComplete()) {
            send.fail(new IllegalStateException("Request already completed"));
            throw new IllegalStateException("Request on " + connectionId() + " was already completed");
        }
        complete(Completion.RESPONSE, send);
    }

    @Override
    public void noResponse() {
        completeOrThrow(Completion.NO_RESPONSE);
    }

    @Override
    public void closeConnection() {
        completeOrThrow(Completion.CLOSE);
    }

    /** After the handler threw: close, unless it had completed the request first. */
    void closeAfterFailure() {
        if (tryComplete()) {
            complete(Completion.CLOSE, null);
        }
    }

    /** A queued request that will never be handled (shutdown); no-op if it completed meanwhile. */
    void abandon() {
        if (tryComplete()) {
            complete(Completion.ABANDONED, null);
        }
    }

    /** Releases a request that was read but never handed to a handler. */
    void discardUnhandled() {
        releasePayload();
    }

    /** On the connection's event loop: carry out the completion. */
    @Override
    public void run() {
        connection.onCompleted(this);
    }

    /** On the connection's event loop: the response write ended. */
    @Override
    public void operationComplete(ChannelFuture future) {
        connection.onResponseWritten(this, future);
    }

    private void completeOrThrow(Completion how) {
        if (!tryComplete()) {
            throw new IllegalStateException("Request on " + connectionId() + " was already completed");
        }
        complete(how, null);
    }

    private boolean tryComplete() {
        return COMPLETED.compareAndSet(this, 0, 1);
    }

    private void complete(Completion how, ResponseSend send) {
        releasePayload();
        this.completion = how;
        this.response = send;
        connection.complete(this);
    }

    private void releasePayload() {
        ByteBuf p = payload;
        payload = null;
        if (p != null) {
            p.release();
            connection.releaseMemory(frameBytes);
        }
    }
}
