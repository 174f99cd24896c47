package io.millrace.broker.cluster;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZKDatabase;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.zookeeper.server.persistence.FileTxnSnapLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single ZooKeeper server in this JVM, for {@code bin/millrace zookeeper} and for running a
 * cluster on one machine: a {@link ZooKeeperServer} with its snapshots and transaction log in
 * one data directory, served by a {@link ServerCnxnFactory} on one address (loopback unless told
 * otherwise). No admin HTTP server and no JMX. Data survives a {@link #close()} and a restart on
 * the same directory.
 *
 * <p>Lifecycle LATENT → STARTED → CLOSED. Thread-safe.
 */
public final class StandaloneZooKeeper implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StandaloneZooKeeper.class);

    public static final int DEFAULT_TICK_TIME_MS = 2_000;
    public static final int DEFAULT_MAX_CLIENT_CONNECTIONS = 60;

    public enum State { LATENT, STARTED, CLOSED }

    private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);
    private final InetSocketAddress address;
    private final Path dataDir;
    private final int tickTimeMs;
    private FileTxnSnapLog txnLog;
    private ZooKeeperServer server;
    private ServerCnxnFactory connections;

    /** A server on {@code host:port} (port 0 for any free port) keeping its data in {@code dataDir}. */
    public StandaloneZooKeeper(String host, int port, Path dataDir) {
        this(host, port, dataDir, DEFAULT_TICK_TIME_MS);
    }

    /** As above; sessions may last between 2 and 20 times {@code tickTimeMs}. */
    public StandaloneZooKeeper(String host, int port, Path dataDir, int tickTimeMs) {
        this.address = new InetSocketAddress(host, port);
        this.dataDir = dataDir;
        this.tickTimeMs = tickTimeMs;
    }

    /** Loads the data directory and starts serving; returns once clients can connect. */
    public synchronized void start() throws IOException, InterruptedException {
        if (!state.compareAndSet(State.LATENT, State.STARTED)) {
            throw new IllegalStateException("ZooKeeper server is " + state.get());
        }
        try {
            Files.createDirectories(dataDir);
            File dir = dataDir.toFile();
            txnLog = new FileTxnSnapLog(dir, dir);
            server = new ZooKeeperServer(txnLog, tickTimeMs, -1, -1, -1, new ZKDatabase(txnLog), "", false);
            connections = ServerCnxnFactory.createFactory(address, DEFAULT_MAX_CLIENT_CONNECTIONS);
            connections.startup(server);
        } catch (IOException | InterruptedException | RuntimeException e) {
            close();
            throw e;
        }
        log.info("ZooKeeper serving on {}:{} with data in {}", address.getHostString(), port(), dataDir);
    }

    /** The port clients connect to; the bound one when constructed with port 0. */
    public int port() {
        ServerCnxnFactory factory = connections;
        return factory == null ? address.getPort() : factory.getLocalPort();
    }

    public String connectString() {
        return address.getHostString() + ":" + port();
    }

    public State state() {
        return state.get();
    }

    /** Stops accepting and closes every session's connection, then flushes and closes the data files. Idempotent. */
    @Override
    public synchronized void close() {
        if (state.getAndSet(State.CLOSED) == State.CLOSED) {
            return;
        }
        if (connections != null) {
            connections.shutdown();
        }
        if (server != null) {
            server.shutdown();
        }
        if (txnLog != null) {
            try {
                txnLog.close();
            } catch (IOException e) {
                log.warn("Could not close ZooKeeper's transaction log in {}", dataDir, e);
            }
        }
        log.info("ZooKeeper on {}:{} stopped", address.getHostString(), port());
    }
}
