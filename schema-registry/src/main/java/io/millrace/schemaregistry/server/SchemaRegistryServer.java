package io.millrace.schemaregistry.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutorGroup;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One schema registry instance: the REST API over Netty on every configured listener, state in
 * ZooKeeper. Any number of instances may share one ZooKeeper and serve the same schemas and ids.
 * Lifecycle: {@link #start()} once, {@link #close()} once; thread-safe.
 */
public final class SchemaRegistryServer implements AutoCloseable {

    private enum State { LATENT, STARTED, CLOSED }

    private static final Logger log = LoggerFactory.getLogger(SchemaRegistryServer.class);

    private final SchemaRegistryConfig config;
    private final SchemaStore store;
    private final RegistryMetrics metrics = new RegistryMetrics();
    private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);
    private final List<Channel> channels = new ArrayList<>();
    private EventLoopGroup bossGroup;
    private EventLoopGroup workerGroup;
    private EventExecutorGroup ioExecutor;

    public SchemaRegistryServer(SchemaRegistryConfig config) {
        this.config = config;
        this.store = new SchemaStore(config);
    }

    /**
     * Starts a registry on an ephemeral port of 127.0.0.1 that keeps its schemas in the ZooKeeper at
     * {@code zookeeperConnect}, with every other setting at its default: the registry a demo, a
     * benchmark or a test runs next to an embedded broker cluster. Its URL is {@code urls().get(0)}.
     */
    public static SchemaRegistryServer startLocal(String zookeeperConnect) throws InterruptedException {
        return new SchemaRegistryServer(new SchemaRegistryConfig(Map.of(
            SchemaRegistryConfig.LISTENERS_CONFIG, "http://127.0.0.1:0",
            SchemaRegistryConfig.ZOOKEEPER_CONNECT_CONFIG, zookeeperConnect))).start();
    }

    /** Connects to ZooKeeper and binds every listener; throws when either fails. */
    public SchemaRegistryServer start() throws InterruptedException {
        if (!state.compareAndSet(State.LATENT, State.STARTED)) {
            throw new IllegalStateException("A registry server starts once");
        }
        try {
            bind();
        } catch (InterruptedException | RuntimeException e) {
            close();
            throw e;
        }
        metrics.register(boundPort());
        log.info("Schema registry listening on {} (ZooKeeper {})", urls(), config.zookeeperConnect());
        return this;
    }

    private void bind() throws InterruptedException {
        store.start();
        RegistryApi api = new RegistryApi(new SchemaRegistry(store, config.defaultCompatibilityLevel()));
        RegistryHttpHandler handler = new RegistryHttpHandler(api, metrics);
        bossGroup = new NioEventLoopGroup(1, new DefaultThreadFactory("registry-acceptor"));
        workerGroup = new NioEventLoopGroup(config.numNetworkThreads(), new DefaultThreadFactory("registry-network"));
        ioExecutor = new DefaultEventExecutorGroup(config.numIoThreads(), new DefaultThreadFactory("registry-io"));
        ServerBootstrap bootstrap = new ServerBootstrap().group(bossGroup, workerGroup)
            .channel(NioServerSocketChannel.class)
            .option(ChannelOption.SO_REUSEADDR, true)
            .childHandler(new RegistryChannelInitializer(config.requestMaxBytes(), handler, ioExecutor));
        for (URI listener : config.listeners()) {
            channels.add(bootstrap.bind(listener.getHost(), listener.getPort()).sync().channel());
        }
    }

    /** The port of the first listener, the one chosen when it was configured as 0. */
    public int boundPort() {
        return ((InetSocketAddress) channels.get(0).localAddress()).getPort();
    }

    /** URLs clients on this host can use, one per listener. */
    public List<String> urls() {
        List<String> urls = new ArrayList<>();
        for (Channel channel : channels) {
            InetSocketAddress address = (InetSocketAddress) channel.localAddress();
            String host = address.getAddress().isAnyLocalAddress() ? "127.0.0.1" : address.getHostString();
            urls.add("http://" + host + ":" + address.getPort());
        }
        return urls;
    }

    public RegistryMetricsMBean metrics() {
        return metrics;
    }

    @Override
    public void close() {
        if (state.getAndSet(State.CLOSED) != State.STARTED) {
            return;
        }
        channels.forEach(c -> c.close().awaitUninterruptibly());
        // a short quiet period: the worker group closes the clients' connections, whose pipeline
        // teardown hops to ioExecutor and back, and a loop that stopped at once would refuse the hop back
        for (EventExecutorGroup group : new EventExecutorGroup[] {bossGroup, workerGroup, ioExecutor}) {
            if (group != null) { // null when start() failed before making it
                group.shutdownGracefully(50, 5_000, TimeUnit.MILLISECONDS).awaitUninterruptibly();
            }
        }
        metrics.unregister();
        store.close();
        log.info("Schema registry stopped");
    }
}
