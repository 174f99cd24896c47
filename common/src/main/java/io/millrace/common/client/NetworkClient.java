package io.millrace.common.client;

import io.millrace.common.errors.NetworkException;
import io.millrace.common.protocol.ApiMessage;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The client end of the Kafka protocol: one connection per broker, opened on first use, and
 * requests matched to responses. Shared by the producer, the consumers and the tools.
 *
 * <p>On connecting, a connection asks the broker for its API versions (ApiVersions v3) and from
 * then on sends each request at the highest version both sides support, so the same client talks to
 * Millrace brokers and to Apache Kafka brokers. Futures complete on the client's one I/O thread:
 * callbacks must not block. A failed connection is retried no sooner than
 * {@code reconnectBackoffMs} after it failed; requests sent meanwhile wait for the new one.
 *
 * <p>Thread-safe.
 */
public final class NetworkClient implements AutoCloseable {

    private static final int CLOSE_QUIET_PERIOD_MS = 0;
    private static final int CLOSE_TIMEOUT_MS = 2_000;

    /**
     * How connections behave.
     *
     * @param requestTimeoutMs how long a request may go unanswered before it fails and the
     *     connection is dropped
     * @param sendBufferBytes SO_SNDBUF, or -1 for the OS default
     * @param receiveBufferBytes SO_RCVBUF, or -1 for the OS default
     * @param maxResponseBytes the largest response frame accepted; a larger one drops the connection
     */
    public record Options(String clientId, int requestTimeoutMs, int connectTimeoutMs, int reconnectBackoffMs,
                          int sendBufferBytes, int receiveBufferBytes, int maxResponseBytes) {

        /** The clients' defaults: socket buffers sized by the OS, as {@code send.buffer.bytes} and {@code receive.buffer.bytes} are. */
        public static Options defaults(String clientId) {
            return new Options(clientId, 30_000, 10_000, 50, -1, -1, Integer.MAX_VALUE);
        }

        public Options withRequestTimeoutMs(int timeoutMs) {
            return new Options(clientId, timeoutMs, connectTimeoutMs, reconnectBackoffMs, sendBufferBytes,
                receiveBufferBytes, maxResponseBytes);
        }

        public Options withReceiveBufferBytes(int bytes) {
            return new Options(clientId, requestTimeoutMs, connectTimeoutMs, reconnectBackoffMs, sendBufferBytes,
                bytes, maxResponseBytes);
        }
    }

    private final Options options;
    private final EventLoopGroup group;
    private final EventLoop loop;
    private final Bootstrap bootstrap;
    private final Map<String, NodeConnection> connections = new ConcurrentHashMap<>();
    private final Map<String, Long> lastFailureNanos = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public NetworkClient(Options options) {
        this.options = options;
        this.group = new NioEventLoopGroup(1, new DefaultThreadFactory("millrace-client-" + options.clientId(), true));
        this.loop = group.next();
        this.bootstrap = bootstrap(options);
    }

    private static Bootstrap bootstrap(Options options) {
        Bootstrap b = new Bootstrap().channel(NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.SO_KEEPALIVE, true)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, options.connectTimeoutMs());
        if (options.sendBufferBytes() > 0) {
            b.option(ChannelOption.SO_SNDBUF, options.sendBufferBytes());
        }
        if (options.receiveBufferBytes() > 0) {
            b.option(ChannelOption.SO_RCVBUF, options.receiveBufferBytes());
        }
        return b;
    }

    public Options options() {
        return options;
    }

    /**
     * The client's one I/O thread as an executor. Work run there and requests sent from there
     * reach the socket without a thread switch: the producer runs its sender on it, as Kafka's
     * producer does its I/O on its sender thread. Tasks must never block.
     */
    public ScheduledExecutorService ioExecutor() {
        return loop;
    }

    /**
     * Whether the calling thread is this client's I/O thread: code running there (a producer's
     * callbacks, for one) must not wait for work that only this thread can do.
     */
    public boolean inIoThread() {
        return loop.inEventLoop();
    }

    /** Sends {@code request} to {@code node} with the default request timeout. */
    public <R extends ApiMessage> CompletableFuture<R> send(Node node, ApiMessage request) {
        return send(node, request, options.requestTimeoutMs());
    }

    /**
     * Sends {@code request} to {@code node} and completes with the broker's response. Fails with
     * {@link NetworkException} when the connection cannot be made or breaks,
     * {@link io.millrace.common.errors.TimeoutException} when no answer comes within
     * {@code timeoutMs}, and {@link io.millrace.common.protocol.UnsupportedVersionException} when
     * the broker speaks no version of the API that Millrace does. Records fields of the request are
     * sent from their own buffers: leave them untouched until the future completes.
     */
    @SuppressWarnings("unchecked")
    public <R extends ApiMessage> CompletableFuture<R> send(Node node, ApiMessage request, int timeoutMs) {
        return (CompletableFuture<R>) connection(node).send(request, timeoutMs, true);
    }

    /**
     * As {@link #send(Node, ApiMessage, int)}, the response read into {@code lease}'s pooled buffer:
     * its records fields are views of that buffer until the caller releases the lease, which it
     * does once it is done with them. For large responses read once, e.g. a consumer's fetches.
     */
    @SuppressWarnings("unchecked")
    public <R extends ApiMessage> CompletableFuture<R> send(Node node, ApiMessage request, int timeoutMs, ResponseLease lease) {
        return (CompletableFuture<R>) connection(node).send(request, timeoutMs, true, lease);
    }

    /**
     * Sends a request the broker does not answer (a Produce with acks=0); completes once the bytes
     * are written to the socket.
     */
    public CompletableFuture<Void> sendNoResponse(Node node, ApiMessage request) {
        return connection(node).send(request, options.requestTimeoutMs(), false).thenApply(r -> null);
    }

    /** Requests to {@code node} sent or queued and not yet finished. */
    public int inFlightRequests(Node node) {
        NodeConnection connection = connections.get(node.address());
        return connection == null ? 0 : connection.outstanding();
    }

    /** Closes the connection to {@code node}, failing its in-flight requests with {@link NetworkException}. */
    public void disconnect(Node node) {
        NodeConnection connection = connections.get(node.address());
        if (connection != null) {
            connection.close(new NetworkException("Disconnected from " + node + " by the client"));
        }
    }

    private NodeConnection connection(Node node) {
        if (closed) {
            throw new IllegalStateException("The network client is closed");
        }
        NodeConnection[] created = new NodeConnection[1];
        NodeConnection connection = connections.compute(node.address(), (address, existing) -> {
            if (existing != null && !existing.isClosed()) {
                return existing;
            }
            created[0] = new NodeConnection(node, options, loop, this::closed);
            return created[0];
        });
        if (created[0] != null) {
            created[0].connect(bootstrap, backoffMs(node.address()));
        }
        return connection;
    }

    private long backoffMs(String address) {
        Long failedAt = lastFailureNanos.get(address);
        if (failedAt == null) {
            return 0;
        }
        long sinceMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - failedAt);
        return Math.max(0, options.reconnectBackoffMs() - sinceMs);
    }

    private void closed(NodeConnection connection, boolean failed) {
        String address = connection.node().address();
        connections.remove(address, connection);
        if (failed) {
            lastFailureNanos.put(address, System.nanoTime());
        } else {
            lastFailureNanos.remove(address);
        }
    }

    /** Closes every connection, failing what is in flight, and stops the I/O thread. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (NodeConnection connection : connections.values()) {
            connection.close(new NodeConnection.ClosedByClient("The network client was closed"));
        }
        group.shutdownGracefully(CLOSE_QUIET_PERIOD_MS, CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS).awaitUninterruptibly();
    }
}
