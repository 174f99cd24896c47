package io.millrace.broker.tools;

import io.millrace.broker.cluster.ClusterConfig;
import io.millrace.broker.cluster.StandaloneZooKeeper;
import io.millrace.broker.group.GroupConfig;
import io.millrace.broker.log.LogConfig;
import io.millrace.broker.network.NetworkConfig;
import io.millrace.broker.server.Broker;
import io.millrace.broker.server.BrokerConfig;
import io.millrace.common.utils.Time;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * A standalone ZooKeeper and one or more brokers in this JVM, all on loopback ports, with their
 * data in a new temporary directory: what the examples, the client libraries' tests and the
 * benchmarks start before doing their one thing.
 *
 * <p>Broker {@code i} has id {@code i} and keeps its port and log directory across
 * {@link #stopBroker(int)} and {@link #startBroker(int)}, so a restarted broker comes back where
 * clients last saw it, with its data. {@link #close()} stops the brokers first (so they flush their
 * logs, write the clean-shutdown marker and leave ZooKeeper while ZooKeeper is still there), then
 * ZooKeeper, then deletes the directory. Not thread-safe, except that {@link #close()} may be called
 * from a shutdown hook.
 */
public final class LocalCluster implements AutoCloseable {

    private static final String LOOPBACK = "127.0.0.1";
    private static final Duration TOPIC_TIMEOUT = Duration.ofSeconds(30);

    private final Path home;
    private final Map<String, Object> overrides;
    private final StandaloneZooKeeper zookeeper;
    private final Broker[] brokers;
    private final int[] ports;
    private boolean closed;

    private LocalCluster(Path home, int brokerCount, Map<String, Object> overrides) {
        this.home = home;
        this.overrides = Map.copyOf(overrides);
        this.zookeeper = new StandaloneZooKeeper(LOOPBACK, 0, home.resolve("zookeeper"));
        this.brokers = new Broker[brokerCount];
        this.ports = new int[brokerCount];
    }

    /** Starts ZooKeeper, then broker 0; returns once the broker is registered and answering. */
    public static LocalCluster start() throws IOException, InterruptedException {
        return start(1, Map.of());
    }

    /**
     * Starts ZooKeeper, then brokers {@code 0..brokerCount-1}, each with the broker settings in
     * {@code overrides} on top of small-footprint defaults; returns once every broker is registered
     * and answering. A {@code broker.id} in {@code overrides} is the first broker's id, the others
     * following it (the indexes of this class's methods stay {@code 0..brokerCount-1}), so that
     * clusters in one JVM can have brokers of different ids.
     */
    public static LocalCluster start(int brokerCount, Map<String, Object> overrides)
        throws IOException, InterruptedException {
        if (brokerCount < 1) {
            throw new IllegalArgumentException("A cluster needs at least one broker, not " + brokerCount);
        }
        LocalCluster cluster = new LocalCluster(Files.createTempDirectory("millrace-cluster-"), brokerCount, overrides);
        try {
            cluster.zookeeper.start();
            for (int i = 0; i < brokerCount; i++) {
                cluster.startBroker(i);
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    /** Starts broker {@code id} (again), on the port it had before if it ran before. */
    public void startBroker(int id) throws InterruptedException {
        if (brokers[id] != null) {
            throw new IllegalStateException("Broker " + id + " is running");
        }
        Map<String, Object> props = new HashMap<>();
        props.put(ClusterConfig.BROKER_ID_CONFIG, id);
        props.put(ClusterConfig.ZOOKEEPER_CONNECT_CONFIG, zookeeper.connectString());
        props.put(NetworkConfig.LISTENERS_CONFIG, "PLAINTEXT://" + LOOPBACK + ":" + ports[id]);
        props.put(NetworkConfig.NUM_NETWORK_THREADS_CONFIG, 1);
        props.put(NetworkConfig.NUM_IO_THREADS_CONFIG, 2);
        props.put(LogConfig.LOG_DIRS_CONFIG, logDir(id).toString());
        props.put(BrokerConfig.SHUTDOWN_TIMEOUT_MS_CONFIG, 5_000L);
        // a development cluster: new groups form at once rather than after the 3 s initial delay
        props.put(GroupConfig.GROUP_INITIAL_REBALANCE_DELAY_MS_CONFIG, 0);
        // and a small offsets topic with as many replicas as there are brokers (up to Kafka's 3), as
        // Kafka's own test clusters have
        props.put(GroupConfig.OFFSETS_TOPIC_NUM_PARTITIONS_CONFIG, 5);
        props.put(GroupConfig.OFFSETS_TOPIC_REPLICATION_FACTOR_CONFIG, Math.min(3, brokers.length));
        props.putAll(overrides);
        // broker.id in the overrides is the first broker's: ids must differ across the clusters of one JVM
        // (each broker exports its metrics under its id), not only within one
        props.put(ClusterConfig.BROKER_ID_CONFIG, firstBrokerId() + id);
        Broker broker = new Broker(new BrokerConfig(props), Time.SYSTEM);
        broker.startup();
        brokers[id] = broker;
        ports[id] = broker.boundPort();
    }

    private int firstBrokerId() {
        Object first = overrides.get(ClusterConfig.BROKER_ID_CONFIG);
        return first == null ? 0 : Integer.parseInt(first.toString());
    }

    /** Shuts broker {@code id} down cleanly; its port and data stay reserved for a restart. */
    public void stopBroker(int id) {
        Broker broker = brokers[id];
        if (broker == null) {
            throw new IllegalStateException("Broker " + id + " is not running");
        }
        brokers[id] = null;
        broker.shutdown();
    }

    /**
     * Creates a topic through the cluster's controller; returns once every partition's leader, if
     * running, has its log open, so a test may look at the partitions' directories at once.
     */
    public void createTopic(String topic, int partitions) throws InterruptedException {
        createTopic(topic, partitions, Map.of());
    }

    /** As {@link #createTopic(String, int)}, with per-topic overrides such as {@code retention.ms}. */
    public void createTopic(String topic, int partitions, Map<String, String> configs) throws InterruptedException {
        try {
            anyBroker().cluster().createTopic(topic, partitions, configs, TOPIC_TIMEOUT)
                .get(TOPIC_TIMEOUT.toMillis() + 5_000, TimeUnit.MILLISECONDS);
            awaitLogsOpen(topic, partitions);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Could not create topic " + topic + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("Topic " + topic + " was not created within " + TOPIC_TIMEOUT, e);
        }
    }

    // The requesting broker's metadata shows the topic first; the others open their logs when
    // their own metadata catches up.
    private void awaitLogsOpen(String topic, int partitions) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + TOPIC_TIMEOUT.toNanos();
        for (int p = 0; p < partitions; p++) {
            while (!logOpenOnLeader(topic, p)) {
                if (System.nanoTime() > deadline) {
                    throw new TimeoutException("The log of " + topic + "-" + p + " was not opened on its leader");
                }
                Thread.sleep(10);
            }
        }
    }

    private boolean logOpenOnLeader(String topic, int partition) {
        int leader = anyBroker().cluster().metadata().leader(topic, partition);
        for (Broker broker : brokers) {
            if (broker != null && broker.brokerId() == leader) {
                return broker.logManager().getLog(topic, partition).isPresent();
            }
        }
        return true;   // its leader is not running in this cluster: nothing to wait for
    }

    private Broker anyBroker() {
        for (Broker broker : brokers) {
            if (broker != null) {
                return broker;
            }
        }
        throw new IllegalStateException("No broker is running");
    }

    public String host() {
        return LOOPBACK;
    }

    /** The running broker {@code id}. */
    public Broker broker(int id) {
        Broker broker = brokers[id];
        if (broker == null) {
            throw new IllegalStateException("Broker " + id + " is not running");
        }
        return broker;
    }

    public int brokerCount() {
        return brokers.length;
    }

    /** Broker 0's port. */
    public int brokerPort() {
        return brokerPort(0);
    }

    /** Broker {@code id}'s port, also while it is stopped (once it has run). */
    public int brokerPort(int id) {
        return ports[id];
    }

    /** What Kafka clients take as {@code bootstrap.servers}: every broker, running or not. */
    public String bootstrapServers() {
        StringJoiner servers = new StringJoiner(",");
        for (int port : ports) {
            servers.add(LOOPBACK + ":" + port);
        }
        return servers.toString();
    }

    public String zookeeperConnect() {
        return zookeeper.connectString();
    }

    /** Broker 0's log directory. */
    public Path logDir() {
        return logDir(0);
    }

    public Path logDir(int id) {
        return home.resolve("broker-" + id);
    }

    /** Stops the brokers, then ZooKeeper, and deletes their data. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<RuntimeException> failures = new ArrayList<>();
        for (int i = 0; i < brokers.length; i++) {
            if (brokers[i] != null) {
                try {
                    brokers[i].shutdown();
                } catch (RuntimeException e) {
                    failures.add(e);
                }
                brokers[i] = null;
            }
        }
        zookeeper.close();
        deleteRecursively(home);
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
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
