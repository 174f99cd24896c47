package io.millrace.examples;

import io.millrace.broker.cluster.ClusterConfig;
import io.millrace.broker.cluster.StandaloneZooKeeper;
import io.millrace.broker.log.LogConfig;
import io.millrace.broker.network.NetworkConfig;
import io.millrace.broker.server.Broker;
import io.millrace.broker.server.BrokerConfig;
import io.millrace.common.utils.Time;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A standalone ZooKeeper and one broker in this JVM, both on free loopback ports, with their data
 * in a new temporary directory: what every example starts before doing its one thing.
 *
 * <p>{@link #close()} stops the broker first (so it flushes its logs, writes the clean-shutdown
 * marker and leaves ZooKeeper while ZooKeeper is still there), then ZooKeeper, then deletes the
 * directory. Not thread-safe, except that {@link #close()} may be called from a shutdown hook.
 */
public final class LocalCluster implements AutoCloseable {

    private static final String LOOPBACK = "127.0.0.1";

    private final Path home;
    private final StandaloneZooKeeper zookeeper;
    private Broker broker;
    private boolean closed;

    private LocalCluster(Path home) {
        this.home = home;
        this.zookeeper = new StandaloneZooKeeper(LOOPBACK, 0, home.resolve("zookeeper"));
    }

    /** Starts ZooKeeper, then broker 0; returns once the broker is registered and answering. */
    public static LocalCluster start() throws IOException, InterruptedException {
        LocalCluster cluster = new LocalCluster(Files.createTempDirectory("millrace-example-"));
        try {
            cluster.zookeeper.start();
            cluster.startBroker();
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    private void startBroker() throws InterruptedException {
        Map<String, Object> props = Map.of(
            ClusterConfig.BROKER_ID_CONFIG, 0,
            ClusterConfig.ZOOKEEPER_CONNECT_CONFIG, zookeeper.connectString(),
            NetworkConfig.LISTENERS_CONFIG, "PLAINTEXT://" + LOOPBACK + ":0",
            NetworkConfig.NUM_NETWORK_THREADS_CONFIG, 1,
            NetworkConfig.NUM_IO_THREADS_CONFIG, 2,
            LogConfig.LOG_DIRS_CONFIG, logDir().toString(),
            BrokerConfig.SHUTDOWN_TIMEOUT_MS_CONFIG, 5_000L);
        broker = new Broker(new BrokerConfig(props), Time.SYSTEM);
        broker.startup();
    }

    public String host() {
        return LOOPBACK;
    }

    public int brokerPort() {
        return broker.boundPort();
    }

    /** What Kafka clients take as {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return LOOPBACK + ":" + brokerPort();
    }

    public String zookeeperConnect() {
        return zookeeper.connectString();
    }

    public Path logDir() {
        return home.resolve("broker-0");
    }

    /** Stops the broker, then ZooKeeper, and deletes their data. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (broker != null) {
            broker.shutdown();
        }
        zookeeper.close();
        deleteRecursively(home);
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not delete " + dir, e);
        }
    }
}
