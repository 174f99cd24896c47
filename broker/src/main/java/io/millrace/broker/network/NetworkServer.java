package io.millrace.broker.network;

import io.millrace.common.errors.MillraceException;
import io.millrace.common.utils.Time;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's network server: accepts connections on every configured listener, reads request
 * frames on {@code num.network.threads} Netty event loops and hands them to a
 * {@link RequestHandler} on {@code num.io.threads} request threads. It knows nothing of the
 * Kafka protocol; a request is an opaque frame and a response a {@link ResponseSend}.
 *
 * <pre>
 *   acceptor (1 per listener) → network thread: frameDecoder → requestHandler ─┐
 *                                                                              │ bounded queue
 *   socket ← ResponseSend (size, buffers, file regions) ← RequestContext ← request thread: RequestHandler
 * </pre>
 *
 * <p>Epoll is used where its native library loads, NIO elsewhere ({@link Transport#best()}).
 * Lifecycle: {@code LATENT → STARTED → CLOSED}; {@link #start()} once, {@link #shutdown} any
 * number of times. Thread-safe.
 */
public final class NetworkServer implements AutoCloseable {

    public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

    private enum State { LATENT, STARTED, CLOSED }

    /** How long closing connections and stopping threads may take after the drain, in ms. */
    private static final long CLOSE_TIMEOUT_MS = 5_000;

    private static final Logger log = LoggerFactory.getLogger(NetworkServer.class);

    private final NetworkConfig config;
    private final Transport transport;
    private final MetricsRegistry registry;
    private final NetworkMetrics metrics;
    private final InFlightRequests inFlight = new InFlightRequests();
    private final RequestHandlerPool pool;
    private final ConnectionShared shared;
    private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);
    private final List<Channel> listenerChannels = new ArrayList<>();
    private EventLoopGroup acceptors;
    private EventLoopGroup networkThreads;

    public NetworkServer(NetworkConfig config, RequestHandler handler, Time time, MetricsRegistry registry) {
        this(config, handler, time, registry, Transport.best());
    }

    public NetworkServer(NetworkConfig config, RequestHandler handler, Time time, MetricsRegistry registry,
                         Transport transport) {
        if (!transport.isAvailable()) {
            throw new IllegalArgumentException("Transport " + transport + " is not available here");
        }
        this.config = config;
        this.transport = transport;
        this.registry = registry;
        this.metrics = new NetworkMetrics(registry.group(NetworkMetrics.GROUP));
        this.pool = new RequestHandlerPool(config.numIoThreads(), config.queuedMaxRequests(), handler, time, metrics);
        this.shared = new ConnectionShared(pool, handler, inFlight, metrics, time, config.connectionsMaxIdleMs(),
            new ConnectionLimits(config.maxConnections(), config.maxConnectionsPerIp(), config.maxConnectionsPerIpOverrides()),
            new RequestMemory(config.queuedMaxRequestBytes()));
        metrics.bindQueue(pool::queueSize, inFlight::count, pool::waitingConnections);
        metrics.bindMemory(shared.memory::used, shared.memory::available, shared.memory::waitingConnections);
    }

    /**
     * Starts the threads and binds every listener; on failure everything started is stopped again.
     *
     * @throws MillraceException if a listener cannot be bound (address in use, unknown host)
     */
    public synchronized void start() {
        if (!state.compareAndSet(State.LATENT, State.STARTED)) {
            throw new IllegalStateException("Network server was already started");
        }
        acceptors = transport.newEventLoopGroup(config.listeners().size(), new DefaultThreadFactory("millrace-acceptor"));
        networkThreads = transport.newEventLoopGroup(config.numNetworkThreads(),
            new DefaultThreadFactory("millrace-network-thread"));
        pool.start();
        try {
            for (Endpoint endpoint : config.listeners()) {
                bind(endpoint);
            }
        } catch (RuntimeException e) {
            shutdown(Duration.ZERO);
            throw e;
        }
    }

    private void bind(Endpoint endpoint) {
        ServerBootstrap bootstrap = new ServerBootstrap()
            .group(acceptors, networkThreads)
            .channel(transport.serverChannelClass())
            .option(ChannelOption.SO_REUSEADDR, true)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.SO_KEEPALIVE, true)
            .childHandler(new BrokerChannelInitializer(shared, endpoint.listenerName(), config.socketRequestMaxBytes()));
        // Set on the listening socket so that accepted sockets start with it (TCP window scaling is agreed at accept).
        if (config.socketReceiveBufferBytes() != -1) {
            bootstrap.option(ChannelOption.SO_RCVBUF, config.socketReceiveBufferBytes());
        }
        if (config.socketSendBufferBytes() != -1) {
            bootstrap.childOption(ChannelOption.SO_SNDBUF, config.socketSendBufferBytes());
        }
        ChannelFuture bound = bootstrap.bind(endpoint.bindAddress()).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            throw new MillraceException("Cannot listen on " + endpoint + ": " + bound.cause(), bound.cause());
        }
        Channel channel = bound.channel();
        synchronized (listenerChannels) {
            listenerChannels.add(channel);
        }
        log.info("Listening on {} at {} ({})", endpoint, channel.localAddress(), transport);
    }

    /** The bound address of each listener, in {@code listeners} order; the real port when 0 was configured. */
    public List<InetSocketAddress> boundAddresses() {
        List<InetSocketAddress> addresses = new ArrayList<>();
        synchronized (listenerChannels) {
            for (Channel channel : listenerChannels) {
                addresses.add((InetSocketAddress) channel.localAddress());
            }
        }
        return addresses;
    }

    /** The bound port of the first listener. */
    public int boundPort() {
        List<InetSocketAddress> addresses = boundAddresses();
        if (addresses.isEmpty()) {
            throw new IllegalStateException("Network server is not listening");
        }
        return addresses.get(0).getPort();
    }

    public Transport transport() {
        return transport;
    }

    public NetworkMetrics metrics() {
        return metrics;
    }

    /**
     * Stops accepting connections and reading requests, waits up to {@code timeout} for the
     * requests in progress to complete and their responses to be written, then closes every
     * connection and stops the threads (waiting at most a few seconds more for that). Requests
     * read but not yet handed to a request thread are dropped, as their connections close.
     *
     * @return true if every request in progress finished within the timeout
     */
    public boolean shutdown(Duration timeout) {
        State previous = state.getAndSet(State.CLOSED);
        if (previous != State.STARTED) {
            registry.remove(metrics.group());
            return true;
        }
        // Refuse new requests before closing the listeners, so that once a client sees the port
        // closed no request it sent can start any more.
        inFlight.startDraining();
        shared.connections.forEach(channel -> channel.config().setAutoRead(false));
        closeListeners();
        boolean drained = awaitDrained(timeout);
        shared.connections.close().awaitUninterruptibly(CLOSE_TIMEOUT_MS);
        stopThreads();
        registry.remove(metrics.group());
        log.info("Network server shut down");
        return drained;
    }

    @Override
    public void close() {
        shutdown(DEFAULT_SHUTDOWN_TIMEOUT);
    }

    private void closeListeners() {
        synchronized (listenerChannels) {
            for (Channel channel : listenerChannels) {
                channel.close().awaitUninterruptibly(CLOSE_TIMEOUT_MS);
            }
        }
    }

    private boolean awaitDrained(Duration timeout) {
        log.info("Shutting down: waiting up to {} ms for {} requests in progress", timeout.toMillis(), inFlight.count());
        try {
            if (inFlight.awaitDrained(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        log.warn("Shutting down with {} requests still in progress after {} ms; closing their connections",
            inFlight.count(), timeout.toMillis());
        return false;
    }

    private void stopThreads() {
        try {
            pool.shutdown(CLOSE_TIMEOUT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (EventLoopGroup group : List.of(acceptors, networkThreads)) {
            group.shutdownGracefully(0, CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        }
        for (EventLoopGroup group : List.of(acceptors, networkThreads)) {
            group.terminationFuture().awaitUninterruptibly(CLOSE_TIMEOUT_MS);
        }
    }
}
