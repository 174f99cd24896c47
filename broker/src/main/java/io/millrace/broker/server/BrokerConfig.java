package io.millrace.broker.server;

import io.millrace.broker.cluster.ClusterConfig;
import io.millrace.broker.group.GroupConfig;
import io.millrace.broker.txn.TransactionConfig;
import io.millrace.broker.log.LogConfig;
import io.millrace.broker.network.NetworkConfig;
import io.millrace.broker.replica.ReplicaConfig;
import io.millrace.common.config.AbstractConfig;
import io.millrace.common.config.ConfigDef;
import io.millrace.common.config.ConfigDef.Importance;
import io.millrace.common.config.ConfigDef.Range;
import io.millrace.common.config.ConfigDef.Type;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The broker's configuration: the request-handling settings declared here, and the network,
 * cluster and log settings of the layers it assembles, each parsed by its own class from the same
 * properties. {@code broker.id} is declared once, in {@link ClusterConfig}.
 */
public final class BrokerConfig extends AbstractConfig {

    public static final String AUTO_CREATE_TOPICS_ENABLE_CONFIG = "auto.create.topics.enable";
    private static final String AUTO_CREATE_TOPICS_ENABLE_DOC = "Create a topic when a client asks for its metadata "
        + "and it does not exist (Kafka's producer does so before its first send), with num.partitions partitions.";

    public static final String NUM_PARTITIONS_CONFIG = "num.partitions";
    private static final String NUM_PARTITIONS_DOC = "The number of partitions of an automatically created topic, and "
        + "of a topic created with CreateTopics asking for the default (-1).";

    public static final String DEFAULT_REPLICATION_FACTOR_CONFIG = "default.replication.factor";
    private static final String DEFAULT_REPLICATION_FACTOR_DOC = "The replicas per partition of an automatically "
        + "created topic, and of a topic created with CreateTopics asking for the default (-1).";

    public static final String SHUTDOWN_TIMEOUT_MS_CONFIG = "broker.shutdown.timeout.ms";
    private static final String SHUTDOWN_TIMEOUT_MS_DOC = "How long a shutdown waits for the requests in progress "
        + "(including fetches waiting for data) to complete and their responses to be written before it closes the "
        + "remaining connections.";

    public static final String FETCH_MAX_WAIT_CAP_MS_CONFIG = "fetch.max.wait.cap.ms";
    private static final String FETCH_MAX_WAIT_CAP_MS_DOC = "The longest a fetch waits in the broker for data, "
        + "whatever its max_wait_ms asks: a client that asks for days gets an answer (empty, if nothing came) after "
        + "this. Waiting fetches are also dropped within a second of their connection closing, and answered at once "
        + "when a partition they wait on is deleted.";

    public static final String SHUTDOWN_ZOOKEEPER_TIMEOUT_MS_CONFIG = "broker.shutdown.zookeeper.timeout.ms";
    private static final String SHUTDOWN_ZOOKEEPER_TIMEOUT_MS_DOC = "How long a shutdown waits to leave the cluster "
        + "(deregister, give up the controller election, close the ZooKeeper session) once its logs are flushed and "
        + "marked clean. With ZooKeeper unreachable the broker stops after this all the same; its session expires "
        + "on the server and takes its ephemeral znodes with it.";

    public static final String PRODUCE_NETWORK_THREAD_MAX_BYTES_CONFIG = "produce.network.thread.max.bytes";
    private static final String PRODUCE_NETWORK_THREAD_MAX_BYTES_DOC = "The most record bytes of a produce request "
        + "that the network thread which read it appends itself, answering without handing the request to a request "
        + "thread and back. It does so only when the answer needs no wait: acks 0 or 1 (or all, to partitions of one "
        + "replica), every partition led here with its log free to append to, no new segment due and no fsync per "
        + "message (flush.messages=1). The other connections of that network thread wait meanwhile, so keep it small. "
        + "0 hands every produce request to a request thread.";

    public static final ConfigDef CONFIG = new ConfigDef()
        .define(AUTO_CREATE_TOPICS_ENABLE_CONFIG, Type.BOOLEAN, true, Importance.HIGH, AUTO_CREATE_TOPICS_ENABLE_DOC)
        .define(NUM_PARTITIONS_CONFIG, Type.INT, 1, Range.atLeast(1), Importance.MEDIUM, NUM_PARTITIONS_DOC)
        .define(DEFAULT_REPLICATION_FACTOR_CONFIG, Type.INT, 1, Range.atLeast(1), Importance.MEDIUM,
            DEFAULT_REPLICATION_FACTOR_DOC)
        .define(SHUTDOWN_TIMEOUT_MS_CONFIG, Type.LONG, 30_000L, Range.atLeast(0), Importance.LOW, SHUTDOWN_TIMEOUT_MS_DOC)
        .define(FETCH_MAX_WAIT_CAP_MS_CONFIG, Type.LONG, 30_000L, Range.atLeast(0), Importance.LOW,
            FETCH_MAX_WAIT_CAP_MS_DOC)
        .define(SHUTDOWN_ZOOKEEPER_TIMEOUT_MS_CONFIG, Type.LONG, 5_000L, Range.atLeast(0), Importance.LOW,
            SHUTDOWN_ZOOKEEPER_TIMEOUT_MS_DOC)
        .define(PRODUCE_NETWORK_THREAD_MAX_BYTES_CONFIG, Type.INT, 1024 * 1024, Range.atLeast(0), Importance.LOW,
            PRODUCE_NETWORK_THREAD_MAX_BYTES_DOC);

    /** Every setting the broker reads, in the order of the generated properties file. */
    public static final List<ConfigDef> ALL = List.of(ClusterConfig.CONFIG_DEF, CONFIG, NetworkConfig.CONFIG,
        LogConfig.BROKER_CONFIG, GroupConfig.CONFIG, TransactionConfig.CONFIG, ReplicaConfig.CONFIG);

    /** Values for the required settings in the generated file, so that it starts a one-machine broker as it is. */
    private static final Map<String, String> STARTER_VALUES = Map.of(
        ClusterConfig.BROKER_ID_CONFIG, "0",
        ClusterConfig.ZOOKEEPER_CONNECT_CONFIG, "127.0.0.1:2181");

    private final NetworkConfig network;
    private final ClusterConfig cluster;
    private final LogConfig log;
    private final GroupConfig group;
    private final TransactionConfig transaction;
    private final ReplicaConfig replica;

    /** Parses and validates every layer's settings; throws ConfigException naming the first bad one. */
    public BrokerConfig(Map<?, ?> props) {
        super(CONFIG, props);
        this.cluster = new ClusterConfig(props);
        this.network = new NetworkConfig(props);
        this.log = new LogConfig(props);
        this.group = new GroupConfig(props);
        this.transaction = new TransactionConfig(props);
        this.replica = new ReplicaConfig(props);
    }

    public int brokerId() {
        return cluster.brokerId();
    }

    public boolean autoCreateTopicsEnable() {
        return getBoolean(AUTO_CREATE_TOPICS_ENABLE_CONFIG);
    }

    public int numPartitions() {
        return getInt(NUM_PARTITIONS_CONFIG);
    }

    public int defaultReplicationFactor() {
        return getInt(DEFAULT_REPLICATION_FACTOR_CONFIG);
    }

    public Duration shutdownTimeout() {
        return Duration.ofMillis(getLong(SHUTDOWN_TIMEOUT_MS_CONFIG));
    }

    public Duration shutdownZooKeeperTimeout() {
        return Duration.ofMillis(getLong(SHUTDOWN_ZOOKEEPER_TIMEOUT_MS_CONFIG));
    }

    public long fetchMaxWaitCapMs() {
        return getLong(FETCH_MAX_WAIT_CAP_MS_CONFIG);
    }

    public int produceNetworkThreadMaxBytes() {
        return getInt(PRODUCE_NETWORK_THREAD_MAX_BYTES_CONFIG);
    }

    public NetworkConfig network() {
        return network;
    }

    public ClusterConfig cluster() {
        return cluster;
    }

    public LogConfig log() {
        return log;
    }

    public GroupConfig group() {
        return group;
    }

    public TransactionConfig transaction() {
        return transaction;
    }

    public ReplicaConfig replica() {
        return replica;
    }

    /** Every declared setting's value in force (as given, else its default; null when neither), by name. */
    public Map<String, Object> settings() {
        Map<String, Object> settings = new LinkedHashMap<>();
        for (AbstractConfig layer : List.of(cluster, this, network, log, group, replica)) {
            settings.putAll(layer.values());
        }
        return settings;
    }

    /** Whether the broker's properties set {@code name}, rather than leaving it at its default. */
    public boolean isSet(String name) {
        return originals().containsKey(name);
    }

    /** {@code config/broker.properties}: every broker setting, documented, at its default. */
    public static String toPropertiesFile() {
        StringBuilder out = new StringBuilder();
        out.append("# Millrace broker configuration: every setting with its documentation, at its default.\n")
            .append("# Generated by `bin/millrace config-docs` from the configuration classes; a test fails when\n")
            .append("# it is stale. Uncomment a line to change a setting; the required ones have no '#'.\n");
        for (ConfigDef def : ALL) {
            out.append('\n').append(def.toPropertiesFile());
        }
        String text = out.toString();
        for (Map.Entry<String, String> starter : STARTER_VALUES.entrySet()) {
            text = text.replace("\n" + starter.getKey() + "=\n", "\n" + starter.getKey() + "=" + starter.getValue() + "\n");
        }
        return text;
    }
}
