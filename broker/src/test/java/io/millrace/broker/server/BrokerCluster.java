package io.millrace.broker.server;

import io.millrace.broker.cluster.ClusterConfig;
import io.millrace.broker.cluster.ClusterSnapshot;
import io.millrace.broker.group.GroupConfig;
import io.millrace.broker.log.LogConfig;
import io.millrace.broker.network.NetworkConfig;
import io.millrace.common.utils.Time;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import io.millrace.testkit.TestDirs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.rules.ExternalResource;

/**
 * Millrace brokers in this JVM on one {@link EmbeddedZooKeeper}, each listening on a free loopback
 * port with its own log directory; shut down and deleted after the test.
 */
final class BrokerCluster extends ExternalResource {

    private final EmbeddedZooKeeper zookeeper;
    private final int size;
    private final Map<String, Object> overrides;
    private final Time time;
    private final List<Broker> brokers = new ArrayList<>();
    private final List<Path> dirs = new ArrayList<>();

    BrokerCluster(EmbeddedZooKeeper zookeeper, int size, Map<String, Object> overrides) {
        this(zookeeper, size, overrides, Time.SYSTEM);
    }

    /** Brokers reading {@code time}, e.g. a wall clock a test moves ahead. */
    BrokerCluster(EmbeddedZooKeeper zookeeper, int size, Map<String, Object> overrides, Time time) {
        this.zookeeper = zookeeper;
        this.size = size;
        this.overrides = overrides;
        this.time = time;
    }

    @Override
    protected void before() throws Throwable {
        for (int id = 0; id < size; id++) {
            dirs.add(TestDirs.create("broker-" + id));
            brokers.add(null);
            start(id);
        }
    }

    @Override
    protected void after() {
        brokers.forEach(b -> {
            if (b != null) {
                b.shutdown();
            }
        });
        dirs.forEach(TestDirs::delete);
    }

    Map<String, Object> config(int id) {
        Map<String, Object> props = new HashMap<>();
        props.put(ClusterConfig.BROKER_ID_CONFIG, id);
        props.put(ClusterConfig.ZOOKEEPER_CONNECT_CONFIG, zookeeper.connectString());
        props.put(ClusterConfig.ZOOKEEPER_SESSION_TIMEOUT_MS_CONFIG, 10_000);
        props.put(NetworkConfig.LISTENERS_CONFIG, "PLAINTEXT://127.0.0.1:0");
        props.put(NetworkConfig.NUM_IO_THREADS_CONFIG, 4);
        props.put(NetworkConfig.NUM_NETWORK_THREADS_CONFIG, 2);
        props.put(LogConfig.LOG_DIRS_CONFIG, dirs.get(id).toString());
        props.put(BrokerConfig.SHUTDOWN_TIMEOUT_MS_CONFIG, 5_000L);
        // new groups form at once, rather than after Kafka's default initial delay of 3 s
        props.put(GroupConfig.GROUP_INITIAL_REBALANCE_DELAY_MS_CONFIG, 0);
        // a small offsets topic, one replica a broker up to Kafka's 3, as in Kafka's own test clusters
        props.put(GroupConfig.OFFSETS_TOPIC_NUM_PARTITIONS_CONFIG, 5);
        props.put(GroupConfig.OFFSETS_TOPIC_REPLICATION_FACTOR_CONFIG, Math.min(3, size));
        props.putAll(overrides);
        return props;
    }

    Broker start(int id) throws InterruptedException {
        Broker broker = new Broker(new BrokerConfig(config(id)), time);
        brokers.set(id, broker);
        broker.startup();
        return broker;
    }

    void stop(int id) {
        brokers.get(id).shutdown();
        brokers.set(id, null);
    }

    /** Kills broker {@code id} without a clean shutdown; {@link #start} restarts it on the same directory. */
    void crash(int id) {
        brokers.get(id).crash();
        brokers.set(id, null);
    }

    EmbeddedZooKeeper zookeeper() {
        return zookeeper;
    }

    Broker broker(int id) {
        return brokers.get(id);
    }

    String bootstrapServers() {
        return brokers.stream().filter(b -> b != null).map(b -> "127.0.0.1:" + b.boundPort())
            .collect(Collectors.joining(","));
    }

    Properties clientProps() {
        Properties props = new Properties();
        props.put("bootstrap.servers", bootstrapServers());
        return props;
    }

    /** Creates a topic and waits until each partition's leader has opened its log (and, if replicated, leads it). */
    void createTopic(String topic, int partitions, Map<String, String> configs) throws Exception {
        Broker any = brokers.stream().filter(b -> b != null).findFirst().orElseThrow();
        any.cluster().createTopic(topic, partitions, configs).get(30, TimeUnit.SECONDS);
        awaitLogs(topic, partitions);
    }

    void awaitLogs(String topic, int partitions) {
        Conditions.waitUntil(() -> {
            for (int p = 0; p < partitions; p++) {
                if (!hasLeaderLog(topic, p)) {
                    return false;
                }
            }
            return true;
        }, 30_000, "the logs of " + topic);
    }

    private boolean hasLeaderLog(String topic, int partition) {
        for (Broker b : brokers) {
            if (b == null) {
                continue;
            }
            ClusterSnapshot snapshot = b.cluster().metadata().snapshot();
            int leader = snapshot.leader(topic, partition);
            if (leader < 0 || brokers.get(leader) == null
                || brokers.get(leader).logManager().getLog(topic, partition).isEmpty()) {
                return false;
            }
            // a replicated partition's log opens before its leader takes the leadership, and answers
            // NOT_LEADER_OR_FOLLOWER until then
            boolean replicated = snapshot.partitionState(topic, partition).map(s -> s.replicas().size() > 1).orElse(false);
            if (replicated && !brokers.get(leader).replicaManager()
                    .partition(new io.millrace.common.TopicPartition(topic, partition))
                    .map(io.millrace.broker.replica.Partition::isLeader).orElse(false)) {
                return false;
            }
        }
        return true;
    }

    /** The leader of a partition as broker 0 sees it. */
    int leader(String topic, int partition) {
        return brokers.get(0).cluster().metadata().snapshot().leader(topic, partition);
    }

    /** A partition of a two-partition {@code topic} that {@code broker} leads (or, with {@code led} false, does not). */
    int partitionLedBy(String topic, int broker, boolean led) {
        for (int p = 0; p < 2; p++) {
            if ((leader(topic, p) == broker) == led) {
                return p;
            }
        }
        throw new AssertionError("broker " + broker + (led ? " leads no partition of " : " leads every partition of ") + topic);
    }

    /** Requests broker {@code id} carried out on the network thread that read them, from its metrics. */
    long requestsOnNetworkThread(int id) {
        Object value = brokers.get(id).metrics().group("socket-server-metrics").value("requests-on-network-thread-total");
        if (!(value instanceof Number number)) {
            throw new AssertionError("requests-on-network-thread-total is " + value);
        }
        return number.longValue();
    }
}
