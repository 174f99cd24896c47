package io.millrace.common.client;

import io.millrace.common.config.AbstractConfig;
import io.millrace.common.config.ConfigDef;
import io.millrace.common.config.ConfigDef.Importance;
import io.millrace.common.config.ConfigDef.Range;
import io.millrace.common.config.ConfigDef.Type;
import io.millrace.common.config.ConfigException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The settings every Millrace client shares, under Kafka's names and with Kafka's defaults. Each
 * client's configuration class adds them to its own definition with {@link #define}.
 */
public final class CommonClientConfigs {

    public static final String BOOTSTRAP_SERVERS_CONFIG = "bootstrap.servers";
    static final String BOOTSTRAP_SERVERS_DOC = "Brokers to ask for the first Metadata, host:port, comma separated. "
        + "A few are enough: the client learns the rest of the cluster from them. Either this or zookeeper.connect "
        + "must be given; this one wins when both are.";

    public static final String ZOOKEEPER_CONNECT_CONFIG = "zookeeper.connect";
    static final String ZOOKEEPER_CONNECT_DOC = "ZooKeeper connect string (host:port[,host:port...][/chroot]). Producers "
        + "and tools read the broker registry there when bootstrap.servers is empty; the group consumer keeps its "
        + "registries there.";

    public static final String CLIENT_ID_CONFIG = "client.id";
    static final String CLIENT_ID_DOC = "A name for this client, sent with every request and used in metric and "
        + "thread names. Empty picks a unique one.";

    public static final String REQUEST_TIMEOUT_MS_CONFIG = "request.timeout.ms";
    static final String REQUEST_TIMEOUT_MS_DOC = "How long to wait for the answer to a request before failing it "
        + "(retriable) and dropping the connection.";

    public static final String SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG = "socket.connection.setup.timeout.ms";
    static final String SOCKET_CONNECTION_SETUP_TIMEOUT_MS_DOC = "How long a TCP connection to a broker may take "
        + "to establish.";

    public static final String RETRY_BACKOFF_MS_CONFIG = "retry.backoff.ms";
    static final String RETRY_BACKOFF_MS_DOC = "How long to wait before retrying a failed request, and the least "
        + "time between two metadata refreshes; a topic the client has not asked about yet is asked for at once.";

    public static final String RECONNECT_BACKOFF_MS_CONFIG = "reconnect.backoff.ms";
    static final String RECONNECT_BACKOFF_MS_DOC = "How long to wait before reconnecting to a broker after a "
        + "connection to it failed.";

    public static final String METADATA_MAX_AGE_MS_CONFIG = "metadata.max.age.ms";
    static final String METADATA_MAX_AGE_MS_DOC = "Refresh metadata at least this often, even without errors, "
        + "to see new brokers and partitions.";

    public static final String SEND_BUFFER_CONFIG = "send.buffer.bytes";
    static final String SEND_BUFFER_DOC = "SO_SNDBUF of connections to brokers; -1, the default, leaves its size to the "
        + "OS, which grows it with the connection's bandwidth and round trip. A fixed size caps a connection at that "
        + "much per round trip (Kafka's clients fix 131072).";

    public static final String RECEIVE_BUFFER_CONFIG = "receive.buffer.bytes";
    static final String RECEIVE_BUFFER_DOC = "SO_RCVBUF of connections to brokers; -1, the default, leaves its size to "
        + "the OS, which grows it with the connection's bandwidth and round trip. A fixed size caps a connection at "
        + "that much per round trip (Kafka's consumer fixes 65536, its producer 32768).";

    private static final AtomicInteger CLIENT_SEQUENCE = new AtomicInteger(1);

    private CommonClientConfigs() {
    }

    /** Adds the shared settings to {@code def} and returns it. */
    public static ConfigDef define(ConfigDef def, int defaultRequestTimeoutMs) {
        return def
            .define(BOOTSTRAP_SERVERS_CONFIG, Type.LIST, "", Importance.HIGH, BOOTSTRAP_SERVERS_DOC)
            .define(ZOOKEEPER_CONNECT_CONFIG, Type.STRING, "", Importance.HIGH, ZOOKEEPER_CONNECT_DOC)
            .define(CLIENT_ID_CONFIG, Type.STRING, "", Importance.MEDIUM, CLIENT_ID_DOC)
            .define(REQUEST_TIMEOUT_MS_CONFIG, Type.INT, defaultRequestTimeoutMs, Range.atLeast(1), Importance.MEDIUM,
                REQUEST_TIMEOUT_MS_DOC)
            .define(SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG, Type.INT, 10_000, Range.atLeast(1), Importance.LOW,
                SOCKET_CONNECTION_SETUP_TIMEOUT_MS_DOC)
            .define(RETRY_BACKOFF_MS_CONFIG, Type.LONG, 100L, Range.atLeast(0), Importance.LOW, RETRY_BACKOFF_MS_DOC)
            .define(RECONNECT_BACKOFF_MS_CONFIG, Type.LONG, 50L, Range.atLeast(0), Importance.LOW, RECONNECT_BACKOFF_MS_DOC)
            .define(METADATA_MAX_AGE_MS_CONFIG, Type.LONG, 300_000L, Range.atLeast(0), Importance.LOW,
                METADATA_MAX_AGE_MS_DOC)
            .define(SEND_BUFFER_CONFIG, Type.INT, -1, Range.atLeast(-1), Importance.LOW, SEND_BUFFER_DOC)
            .define(RECEIVE_BUFFER_CONFIG, Type.INT, -1, Range.atLeast(-1), Importance.LOW, RECEIVE_BUFFER_DOC);
    }

    /**
     * The addresses to bootstrap from: {@code bootstrap.servers}, else the brokers registered in
     * ZooKeeper at {@code zookeeper.connect}. Throws {@link ConfigException} when neither is set.
     */
    public static List<InetSocketAddress> bootstrap(AbstractConfig config) {
        List<String> servers = config.getList(BOOTSTRAP_SERVERS_CONFIG);
        if (servers != null && !servers.isEmpty()) {
            return BootstrapServers.parse(String.join(",", servers));
        }
        String zookeeper = config.getString(ZOOKEEPER_CONNECT_CONFIG);
        if (zookeeper != null && !zookeeper.isBlank()) {
            return BootstrapServers.fromZooKeeper(zookeeper, config.getInt(SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG));
        }
        throw new ConfigException("Set " + BOOTSTRAP_SERVERS_CONFIG + " (host:port,...) or " + ZOOKEEPER_CONNECT_CONFIG
            + " so the client can find the cluster");
    }

    /** {@code client.id}, or {@code <prefix>-<n>} when it is empty. */
    public static String clientId(AbstractConfig config, String prefix) {
        String id = config.getString(CLIENT_ID_CONFIG);
        return id == null || id.isBlank() ? prefix + "-" + CLIENT_SEQUENCE.getAndIncrement() : id;
    }

    /**
     * Connection options from the shared settings; the client id is {@code client.id}, or
     * {@code defaultClientId} when that is empty.
     */
    public static NetworkClient.Options networkOptions(AbstractConfig config, String defaultClientId) {
        String configured = config.getString(CLIENT_ID_CONFIG);
        String clientId = configured == null || configured.isBlank() ? defaultClientId : configured;
        return new NetworkClient.Options(clientId, config.getInt(REQUEST_TIMEOUT_MS_CONFIG),
            config.getInt(SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG),
            (int) config.getLong(RECONNECT_BACKOFF_MS_CONFIG), config.getInt(SEND_BUFFER_CONFIG),
            config.getInt(RECEIVE_BUFFER_CONFIG), Integer.MAX_VALUE);
    }
}
