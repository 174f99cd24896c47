package io.millrace.common.client;

import io.millrace.common.errors.NetworkException;
import io.millrace.common.errors.TimeoutException;
import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Frames;
import io.millrace.common.protocol.RequestHeader;
import io.millrace.common.protocol.ResponseHeader;
import io.millrace.common.protocol.message.ApiMessages;
import io.millrace.common.protocol.message.ApiVersionsRequest;
import io.millrace.common.protocol.message.ApiVersionsResponse;
import io.millrace.common.protocol.types.BufferPayload;
import io.millrace.common.protocol.types.RecordsPayload;
import io.millrace.common.protocol.types.SegmentWriter.SegmentSink;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection to one broker: connects, learns the broker's API versions, then sends requests
 * and matches responses to them by correlation id.
 *
 * <p>Threading: every field but the counters is touched only on the connection's event loop;
 * {@link #send} may be called from any thread and hops onto the loop. A connection never reopens:
 * once closed (by the broker, an I/O error, a request timeout or the client) it fails whatever is
 * in flight, and {@link NetworkClient} makes a new one for the next request.
 */
final class NodeConnection extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(NodeConnection.class);
    private static final short API_VERSIONS_VERSION = 3;
    private static final ApiVersionsRequest API_VERSIONS = new ApiVersionsRequest("millrace-java", "0.1.0");

    private final Node node;
    private final NetworkClient.Options options;
    private final EventLoop loop;
    private final BiConsumer<NodeConnection, Boolean> onClose;
    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    private final Map<Integer, InFlightRequest> inFlight = new HashMap<>();
    private final AtomicInteger outstanding = new AtomicInteger();
    private Channel channel;
    private ApiVersionTable versions;
    private int nextCorrelationId;
    private volatile boolean closed;
    private boolean released;
    private final List<PendingSend> waiting = new ArrayList<>();
    private boolean negotiated; // guarded by waiting

    NodeConnection(Node node, NetworkClient.Options options, EventLoop loop, BiConsumer<NodeConnection, Boolean> onClose) {
        this.node = node;
        this.options = options;
        this.loop = loop;
        this.onClose = onClose;
    }

    Node node() {
        return node;
    }

    boolean isClosed() {
        return closed;
    }

    /** Requests sent or waiting to be sent and not yet finished. */
    int outstanding() {
        return outstanding.get();
    }

    /** Connects after {@code delayMs} (the reconnect backoff), then negotiates versions. */
    void connect(Bootstrap template, long delayMs) {
        if (delayMs > 0) {
            loop.schedule(() -> connect(template, 0), delayMs, TimeUnit.MILLISECONDS);
            return;
        }
        if (closed) {
            return;
        }
        template.clone(loop).handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ResponseFrameDecoder decoder = new ResponseFrameDecoder(options.maxResponseBytes(), NodeConnection.this::leaseOf);
                ch.config().setRecvByteBufAllocator(new FrameReadAllocator(ch.config().getRecvByteBufAllocator(), decoder));
                ch.pipeline()
                    .addLast("frame-decoder", decoder)
                    .addLast("responses", NodeConnection.this);
            }
        }).connect(node.host(), node.port()).addListener((ChannelFuture f) -> connected(f));
    }

    private void connected(ChannelFuture future) {
        if (!future.isSuccess()) {
            close(new NetworkException("Could not connect to " + node + ": " + future.cause().getMessage(), future.cause()));
            return;
        }
        channel = future.channel();
        if (closed) {
            channel.close();
            return;
        }
        CompletableFuture<ApiMessage> answer = new CompletableFuture<>();
        write(API_VERSIONS, API_VERSIONS_VERSION, options.requestTimeoutMs(), true, null, answer);
        answer.whenComplete((response, error) -> negotiated((ApiVersionsResponse) response, error));
    }

    private void negotiated(ApiVersionsResponse response, Throwable error) {
        if (error != null) {
            close(new NetworkException("Could not learn the API versions of " + node + ": " + error.getMessage(), error));
        } else if (response.error() != Errors.NONE) {
            close(new NetworkException(node + " refused ApiVersions: " + response.error()));
        } else {
            versions = ApiVersionTable.negotiate(response, node.toString());
            ready.complete(null);
            drainWaiting();
        }
    }

    /**
     * Sends {@code request} once the connection is ready. Records payloads in the request are sent
     * from their own buffers, so the caller must leave them untouched until the future completes.
     */
    CompletableFuture<ApiMessage> send(ApiMessage request, int timeoutMs, boolean expectResponse) {
        return send(request, timeoutMs, expectResponse, null);
    }

    /** As {@link #send(ApiMessage, int, boolean)}, the response read into {@code lease}'s buffer when not null. */
    CompletableFuture<ApiMessage> send(ApiMessage request, int timeoutMs, boolean expectResponse, ResponseLease lease) {
        CompletableFuture<ApiMessage> result = new CompletableFuture<>();
        outstanding.incrementAndGet();
        result.whenComplete((r, e) -> outstanding.decrementAndGet());
        PendingSend send = new PendingSend(request, timeoutMs, expectResponse, lease, result);
        synchronized (waiting) {
            if (!negotiated && !closed) {
                // kept in a FIFO queue: requests must reach the broker in the order they were sent
                waiting.add(send);
                return result;
            }
        }
        if (loop.inEventLoop()) {
            writeNegotiated(send);
        } else {
            loop.execute(() -> writeNegotiated(send));
        }
        return result;
    }

    /** A request sent before the connection was ready. */
    private record PendingSend(ApiMessage request, int timeoutMs, boolean expectResponse, ResponseLease lease,
                               CompletableFuture<ApiMessage> result) {
    }

    private void drainWaiting() {
        List<PendingSend> sends;
        synchronized (waiting) {
            negotiated = true;
            sends = new ArrayList<>(waiting);
            waiting.clear();
        }
        sends.forEach(this::writeNegotiated);
    }

    private void failWaiting(Throwable cause) {
        List<PendingSend> sends;
        synchronized (waiting) {
            sends = new ArrayList<>(waiting);
            waiting.clear();
        }
        sends.forEach(send -> send.result().completeExceptionally(cause));
    }

    private void writeNegotiated(PendingSend send) {
        if (closed) {
            send.result().completeExceptionally(new NetworkException("Connection to " + node + " is closed"));
            return;
        }
        short version;
        try {
            version = versions.versionFor(send.request().apiKey());
        } catch (RuntimeException e) {
            send.result().completeExceptionally(e);
            return;
        }
        write(send.request(), version, send.timeoutMs(), send.expectResponse(), send.lease(), send.result());
    }

    private void write(ApiMessage request, short version, int timeoutMs, boolean expectResponse, ResponseLease lease,
                       CompletableFuture<ApiMessage> result) {
        if (closed) {
            result.completeExceptionally(new NetworkException("Connection to " + node + " is closed"));
            return;
        }
        RequestHeader header = new RequestHeader(request.apiKey(), version, nextCorrelationId++, options.clientId());
        ByteBuf frame;
        try {
            frame = encode(header, request);
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
            return;
        }
        if (expectResponse) {
            inFlight.put(header.correlationId(), new InFlightRequest(header, result, lease,
                loop.schedule(() -> timedOut(header.correlationId(), timeoutMs), timeoutMs, TimeUnit.MILLISECONDS)));
        }
        channel.writeAndFlush(frame).addListener(f -> {
            if (!f.isSuccess()) {
                close(new NetworkException("Could not send to " + node + ": " + f.cause().getMessage(), f.cause()));
            } else if (!expectResponse) {
                result.complete(null);
            }
        });
    }

    /** The frame as one composite buffer: protocol bytes copied once, records payloads wrapped, not copied. */
    private ByteBuf encode(RequestHeader header, ApiMessage request) {
        List<ByteBuf> parts = new ArrayList<>(4);
        Frames.writeRequest(header, request, new SegmentSink() {
            @Override
            public void protocolBytes(ByteBuffer bytes) {
                parts.add(Unpooled.wrappedBuffer(bytes));
            }

            @Override
            public void records(RecordsPayload records) {
                parts.add(Unpooled.wrappedBuffer(payloadBuffer(records)));
            }
        });
        if (parts.size() == 1) {
            return parts.get(0);
        }
        CompositeByteBuf composite = Unpooled.compositeBuffer(parts.size());
        composite.addComponents(true, parts);
        return composite;
    }

    private static ByteBuffer payloadBuffer(RecordsPayload records) {
        if (records instanceof BufferPayload buffer) {
            return buffer.buffer().duplicate();
        }
        ByteBuffer copy = ByteBuffer.allocate(records.sizeInBytes());
        records.copyTo(copy);
        return copy.flip();
    }

    /** The lease the request with {@code correlationId} came with, if it is in flight and has one. */
    private ResponseLease leaseOf(int correlationId) {
        InFlightRequest request = inFlight.get(correlationId);
        return request == null ? null : request.lease();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        received((ByteBuffer) msg);
    }

    private void received(ByteBuffer bytes) {
        int correlationId = bytes.remaining() >= 4 ? bytes.getInt(bytes.position()) : -1;
        InFlightRequest request = inFlight.remove(correlationId);
        if (request == null) {
            close(new NetworkException(node + " answered correlation id " + correlationId + ", which no request has"));
            return;
        }
        request.timeout().cancel(false);
        // The frame is a buffer of its own (ResponseFrameDecoder), a heap one or the request's lease:
        // parsed records fields may be views of it.
        try {
            request.result().complete(parse(request.header(), bytes));
        } catch (RuntimeException e) {
            request.result().completeExceptionally(e);
            close(new NetworkException("Malformed " + request.header().api().displayName() + " response from " + node, e));
        }
    }

    private static ApiMessage parse(RequestHeader header, ByteBuffer bytes) {
        ApiKey api = header.api();
        ResponseHeader.parse(bytes, header.responseHeaderVersion());
        if (api == ApiKey.API_VERSIONS) {
            return parseApiVersions(bytes, header.apiVersion());
        }
        return ApiMessages.parseResponse(api, bytes, header.apiVersion());
    }

    /** A broker too old for our ApiVersions version answers at version 0; read that too. */
    private static ApiMessage parseApiVersions(ByteBuffer bytes, short version) {
        int start = bytes.position();
        try {
            return ApiVersionsResponse.parse(bytes, version);
        } catch (RuntimeException e) {
            bytes.position(start);
            return ApiVersionsResponse.parse(bytes, (short) 0);
        }
    }

    private void timedOut(int correlationId, int timeoutMs) {
        InFlightRequest request = inFlight.remove(correlationId);
        if (request != null) {
            String api = request.header().api().displayName();
            request.result().completeExceptionally(
                new TimeoutException(node + " did not answer " + api + " within " + timeoutMs + " ms"));
            // Kafka's clients drop the connection too: a broker this slow is likely stuck.
            close(new NetworkException("Disconnected from " + node + " after a " + api + " request timed out"));
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        close(new NetworkException("Connection to " + node + " was closed"));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        close(new NetworkException("Connection to " + node + " failed: " + cause.getMessage(), cause));
    }

    /** Closes the connection, failing everything in flight with {@code cause}. Idempotent, any thread. */
    void close(Throwable cause) {
        // Marked at once, so that a request sent right after a disconnect gets a new connection.
        closed = true;
        if (!loop.inEventLoop()) {
            loop.execute(() -> release(cause));
        } else {
            release(cause);
        }
    }

    private void release(Throwable cause) {
        if (released) {
            return;
        }
        released = true;
        boolean failed = !ready.isDone() || !(cause instanceof ClosedByClient);
        ready.completeExceptionally(cause);
        failWaiting(cause);
        for (InFlightRequest request : inFlight.values()) {
            request.timeout().cancel(false);
            request.result().completeExceptionally(cause);
        }
        inFlight.clear();
        if (channel != null) {
            channel.close();
        }
        LOG.debug("Closed connection to {}: {}", node, cause.getMessage());
        onClose.accept(this, failed);
    }

    /** The cause given when the client itself closes a connection. */
    static final class ClosedByClient extends NetworkException {
        private static final long serialVersionUID = 1L;

        ClosedByClient(String message) {
            super(message);
        }
    }
}
