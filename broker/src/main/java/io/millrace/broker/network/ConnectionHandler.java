package io.millrace.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection's requests: the {@code requestHandler} stage. It hands each request frame to the
 * {@link RequestHandlerPool} (unless the handler carries it out on this network thread at once,
 * {@link RequestHandler#handleOnNetworkThread}) and writes the response back, keeping Kafka's rule that a connection
 * has <b>one request in progress at a time</b>: from the moment a frame arrives the connection is
 * muted ({@code autoRead} off) and it is unmuted only when that request's response has been
 * written (or it completed without one). Responses therefore leave in request order with no
 * reordering buffer. Frames a client pipelined into the same read wait here, already in memory,
 * and go to the pool one by one.
 *
 * <p>If the pool's queue is full the frame stays here and the connection, still muted, waits to
 * be called back ({@link RequestHandlerPool#awaitSpace}): back-pressure reaches the client through
 * TCP, and nothing is dropped.
 *
 * <p>Stateful, one per connection (not {@code @Sharable}): the pending frames, the request in
 * progress, the mute flag and the idle timer. Every field is confined to the channel's event
 * loop; the only entry points from other threads are {@link #complete} and
 * {@link #queueSpaceAvailable()}, which hop onto the event loop.
 */
final class ConnectionHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(ConnectionHandler.class);

    private final ConnectionShared shared;
    private final String listenerName;
    private final ReadGate gate;
    private final ArrayDeque<ChannelRequestContext> pending = new ArrayDeque<>(4);
    private final Runnable retryDispatch = this::retryAfterQueueSpace;
    private final Runnable idleCheck = this::checkIdle;

    private ChannelHandlerContext ctx;
    private String connectionId;
    private InetSocketAddress remoteAddress;
    private InetSocketAddress localAddress;
    private ChannelRequestContext inProgress;
    private boolean waitingForQueue;
    private boolean muted;
    private volatile boolean open;
    /** The broker decided to close this connection: frames not yet started are dropped. */
    private boolean closing;
    private long lastActiveNanos;
    private ScheduledFuture<?> idleTimer;

    ConnectionHandler(ConnectionShared shared, String listenerName, ReadGate gate) {
        this.shared = shared;
        this.listenerName = listenerName;
        this.gate = gate;
    }

    // ---- events on the event loop ----------------------------------------------------------

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        SocketAddress local = ctx.channel().localAddress();
        SocketAddress remote = ctx.channel().remoteAddress();
        localAddress = local instanceof InetSocketAddress ? (InetSocketAddress) local : null;
        remoteAddress = remote instanceof InetSocketAddress ? (InetSocketAddress) remote : null;
        connectionId = describe(local) + "-" + describe(remote) + "-" + shared.nextConnectionIndex();
        open = true;
        lastActiveNanos = shared.time.nanoseconds();
        shared.metrics.connectionOpened();
        scheduleIdleCheck(shared.maxIdleNanos);
        log.debug("Accepted connection {} on {}", connectionId, listenerName);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf)) {
            ctx.fireChannelRead(msg);
            return;
        }
        ByteBuf frame = (ByteBuf) msg;
        lastActiveNanos = shared.time.nanoseconds();
        shared.metrics.requestReceived();
        if (closing || shared.inFlight.isDraining()) {
            releaseFrame(frame);
            return;
        }
        pending.add(new ChannelRequestContext(this, frame, shared.time.nanoseconds()));
        mute();
        dispatchNext();
    }

    // Bytes alone are not activity: a client that trickles a frame it never finishes stays idle.
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        open = false;
        if (idleTimer != null) {
            idleTimer.cancel(false);
        }
        // Frames the client sent before it closed are still carried out, one at a time, as Kafka
        // does: an acks=0 producer pipelines requests and closes without waiting for any answer.
        // Their responses have nowhere to go and are dropped. Only a close the broker decided on
        // (or a shutdown) drops frames not yet started.
        if (closing) {
            discardPending();
            if (waitingForQueue) {
                shared.pool.stopWaiting(this);
            }
        }
        shared.metrics.connectionClosed();
        log.debug("Connection {} closed", connectionId);
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof IOException) {
            log.debug("Connection {} failed: {}", connectionId, cause.toString());
        } else {
            log.warn("Closing connection {} after an unexpected error", connectionId, cause);
        }
        ctx.close();
    }

    // ---- the request in progress -------------------------------------------------------------

    /** Hands the oldest pending frame to the pool unless a request is in progress; unmutes when none is left. */
    private void dispatchNext() {
        if (inProgress != null || waitingForQueue || closing) {
            return;
        }
        ChannelRequestContext next = pending.peek();
        if (next == null) {
            if (open) {
                unmute();
            }
            return;
        }
        if (!shared.inFlight.tryAcquire()) {
            discardPending(); // shutting down: requests not yet started are not started
            return;
        }
        next.markEnqueued(shared.time.nanoseconds());
        if (handledHere(next) || shared.pool.offer(next)) {
            pending.poll();
            inProgress = next;
            return;
        }
        shared.inFlight.release();
        waitingForQueue = true;
        shared.pool.awaitSpace(this);
    }

    /**
     * Offers the request to the handler on this network thread ({@link RequestHandler#handleOnNetworkThread}).
     * Its completion, even one made before this returns, is carried out by a task queued on this
     * event loop, so it runs after the request has become the one in progress.
     */
    private boolean handledHere(ChannelRequestContext request) {
        boolean taken;
        try {
            taken = shared.handler.handleOnNetworkThread(request, request.payload());
        } catch (Throwable t) {
            log.error("Request handler failed on connection {}; closing it", connectionId, t);
            request.closeAfterFailure();
            taken = true;
        }
        if (taken) {
            shared.metrics.handledOnNetworkThread();
        }
        return taken;
    }

    /** From a request thread: the queue took a request, so this connection's may fit now. */
    void queueSpaceAvailable() {
        try {
            ctx.channel().eventLoop().execute(retryDispatch);
        } catch (RejectedExecutionException e) {
            log.debug("Connection {} cannot retry: its event loop has shut down", connectionId);
        }
    }

    private void retryAfterQueueSpace() {
        waitingForQueue = false;
        if (closing) {
            shared.pool.wakeOne(); // this connection is gone: give the free slot to the next one
            return;
        }
        dispatchNext();
    }

    /** From any thread: the request was completed; carry it out on the event loop. */
    void complete(ChannelRequestContext request) {
        try {
            ctx.channel().eventLoop().execute(request);
        } catch (RejectedExecutionException e) {
            // The server shut down before this request finished.
            if (request.response() != null) {
                request.response().fail(new ClosedChannelException());
            }
            shared.inFlight.release();
        }
    }

    void onCompleted(ChannelRequestContext request) {
        switch (request.completion()) {
            case RESPONSE:
                writeResponse(request);
                break;
            case CLOSE:
                closing = true; // before finish(), so that no pending frame is dispatched
                open = false;
                ctx.close();
                // If the client had closed first, channelInactive has run already and kept the
                // pending frames to carry them out; now they are dropped, so release them here.
                discardPending();
                finish(request);
                break;
            default: // NO_RESPONSE, ABANDONED
                finish(request);
        }
    }

    private void writeResponse(ChannelRequestContext request) {
        ResponseSend response = request.response();
        if (!ctx.channel().isActive()) {
            response.fail(new ClosedChannelException());
            finish(request);
            return;
        }
        response.writeTo(ctx, ctx.newPromise().addListener(request));
    }

    void onResponseWritten(ChannelRequestContext request, ChannelFuture future) {
        ResponseSend response = request.response();
        if (future.isSuccess()) {
            shared.metrics.bytesWritten(response.frameSizeInBytes());
        } else {
            log.debug("Response on {} not written: {}", connectionId, String.valueOf(future.cause()));
        }
        response.notifyListener(future.cause());
        finish(request);
    }

    private void finish(ChannelRequestContext request) {
        lastActiveNanos = shared.time.nanoseconds(); // before the release that lets shutdown (and tests) move on
        if (inProgress == request) {
            inProgress = null;
        }
        shared.inFlight.release();
        dispatchNext();
    }

    private void discardPending() {
        ChannelRequestContext request;
        while ((request = pending.poll()) != null) {
            request.discardUnhandled();
        }
    }

    private void mute() {
        if (!muted) {
            muted = true;
            gate.requestInProgress(true);
        }
    }

    private void unmute() {
        if (muted && !shared.inFlight.isDraining()) {
            muted = false;
            gate.requestInProgress(false);
        }
    }

    /** Releases a request frame never made into a request, and the request memory its decoder reserved for it. */
    private void releaseFrame(ByteBuf frame) {
        int bytes = frame.readableBytes();
        frame.release();
        releaseMemory(bytes);
    }

    /** A request's frame was released: its bytes no longer count against {@code queued.max.request.bytes}. */
    void releaseMemory(int frameBytes) {
        shared.memory.release(frameBytes);
    }

    // ---- idle connections ----------------------------------------------------------------------

    private void scheduleIdleCheck(long delayNanos) {
        if (shared.maxIdleNanos >= 0) {
            idleTimer = ctx.executor().schedule(idleCheck, Math.max(delayNanos, 1_000_000L), TimeUnit.NANOSECONDS);
        }
    }

    /** Closes the connection if nothing happened on it for {@code connections.max.idle.ms} by the injected clock. */
    private void checkIdle() {
        if (!open) {
            return;
        }
        boolean busy = inProgress != null || waitingForQueue || !pending.isEmpty();
        long idleNanos = shared.time.nanoseconds() - lastActiveNanos;
        if (!busy && idleNanos >= shared.maxIdleNanos) {
            log.debug("Closing connection {}: idle for {} ms (connections.max.idle.ms = {})", connectionId,
                TimeUnit.NANOSECONDS.toMillis(idleNanos), TimeUnit.NANOSECONDS.toMillis(shared.maxIdleNanos));
            ctx.close();
            return;
        }
        scheduleIdleCheck(busy ? shared.maxIdleNanos : shared.maxIdleNanos - idleNanos);
    }

    // ---- what a RequestContext reads -----------------------------------------------------------

    String connectionId() {
        return connectionId;
    }

    String listenerName() {
        return listenerName;
    }

    InetSocketAddress remoteAddress() {
        return remoteAddress;
    }

    InetSocketAddress localAddress() {
        return localAddress;
    }

    ByteBufAllocator alloc() {
        return ctx.alloc();
    }

    boolean isOpen() {
        return open;
    }

    private static String describe(SocketAddress address) {
        if (address instanceof InetSocketAddress) {
            InetSocketAddress inet = (InetSocketAddress) address;
            return inet.getAddress().getHostAddress() + ":" + inet.getPort();
        }
        return String.valueOf(address);
    }
}
