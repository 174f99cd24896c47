package io.millrace.schemaregistry.server;

import io.millrace.common.config.AbstractConfig;
import io.millrace.common.config.ConfigDef;
import io.millrace.common.config.ConfigDef.Importance;
import io.millrace.common.config.ConfigDef.Range;
import io.millrace.common.config.ConfigDef.Type;
import io.millrace.common.config.ConfigDef.ValidString;
import io.millrace.common.config.ConfigDef.Validator;
import io.millrace.common.config.ConfigException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Every setting of the schema registry server, declared once. Names follow Confluent's Schema
 * Registry where it has one ({@code listeners}, {@code schema.compatibility.level}) and the
 * broker's for ZooKeeper, so one file can serve both. Values are parsed and validated in the
 * constructor. Immutable and thread-safe.
 */
public final class SchemaRegistryConfig extends AbstractConfig {

    public static final String LISTENERS_CONFIG = "listeners";
    static final String LISTENERS_DOC = "The addresses the registry serves its REST API on, comma separated, each "
        + "http://host:port. Host 0.0.0.0 listens on every interface; port 0 takes a free port.";

    public static final String ZOOKEEPER_CONNECT_CONFIG = "zookeeper.connect";
    static final String ZOOKEEPER_CONNECT_DOC = "ZooKeeper servers as host:port[,host:port...], optionally followed by "
        + "a chroot path (host:port/path) under which the registry keeps its /millrace/schema-registry tree. Every "
        + "registry instance on the same ZooKeeper path serves the same schemas and ids.";

    public static final String ZOOKEEPER_SESSION_TIMEOUT_MS_CONFIG = "zookeeper.session.timeout.ms";
    static final String ZOOKEEPER_SESSION_TIMEOUT_MS_DOC = "ZooKeeper session timeout. The registry keeps no "
        + "ephemeral state, so an expired session costs only a reconnect.";

    public static final String ZOOKEEPER_CONNECTION_TIMEOUT_MS_CONFIG = "zookeeper.connection.timeout.ms";
    static final String ZOOKEEPER_CONNECTION_TIMEOUT_MS_DOC = "How long startup waits for the first ZooKeeper "
        + "connection, and about how long a request waits for ZooKeeper before it fails with 500 / 50001.";

    public static final String ZOOKEEPER_RETRY_BACKOFF_MS_CONFIG = "zookeeper.retry.backoff.ms";
    static final String ZOOKEEPER_RETRY_BACKOFF_MS_DOC = "Wait between retries of a ZooKeeper operation that failed "
        + "on a lost connection, within zookeeper.connection.timeout.ms.";

    public static final String SCHEMA_COMPATIBILITY_LEVEL_CONFIG = "schema.compatibility.level";
    static final String SCHEMA_COMPATIBILITY_LEVEL_DOC = "The compatibility level of subjects that have none of their "
        + "own, until PUT /config sets a global one (which is kept in ZooKeeper and wins over this setting).";

    public static final String REQUEST_MAX_BYTES_CONFIG = "request.max.bytes";
    static final String REQUEST_MAX_BYTES_DOC = "The largest request body the registry reads, in bytes; a larger one "
        + "is answered with 413 Payload Too Large.";

    public static final String NUM_NETWORK_THREADS_CONFIG = "num.network.threads";
    static final String NUM_NETWORK_THREADS_DOC = "The number of threads that read requests and write responses "
        + "(Netty event loops). They never wait for ZooKeeper; num.io.threads do.";

    public static final String NUM_IO_THREADS_CONFIG = "num.io.threads";
    static final String NUM_IO_THREADS_DOC = "The number of threads that handle requests, which includes waiting "
        + "for ZooKeeper. Requests of one connection are handled in order.";

    public static final String SCHEMA_ID_BASE_CONFIG = "schema.id.base";
    static final String SCHEMA_ID_BASE_DOC = "The ids this registry hands out start just above this number. Give each "
        + "live data centre's registry a base of its own, far enough apart (0, 100000000, 200000000, ...), and the ids "
        + "never collide when the mirror copies schemas from every live registry into the offline one, which keeps "
        + "them (IMPORT mode). Only ids above both the base and the last id handed out are used.";

    public static final ConfigDef CONFIG = new ConfigDef()
        .define(LISTENERS_CONFIG, Type.LIST, "http://0.0.0.0:8081",
            Validator.described("http://host:port, ...", SchemaRegistryConfig::validateListeners), Importance.HIGH, LISTENERS_DOC)
        .define(ZOOKEEPER_CONNECT_CONFIG, Type.STRING, "127.0.0.1:2181", Importance.HIGH, ZOOKEEPER_CONNECT_DOC)
        .define(SCHEMA_COMPATIBILITY_LEVEL_CONFIG, Type.STRING, CompatibilityLevel.BACKWARD.name(),
            ValidString.in(CompatibilityLevel.names()), Importance.HIGH, SCHEMA_COMPATIBILITY_LEVEL_DOC)
        .define(ZOOKEEPER_SESSION_TIMEOUT_MS_CONFIG, Type.INT, 18_000, Range.atLeast(1), Importance.MEDIUM,
            ZOOKEEPER_SESSION_TIMEOUT_MS_DOC)
        .define(ZOOKEEPER_CONNECTION_TIMEOUT_MS_CONFIG, Type.INT, 15_000, Range.atLeast(1), Importance.MEDIUM,
            ZOOKEEPER_CONNECTION_TIMEOUT_MS_DOC)
        .define(REQUEST_MAX_BYTES_CONFIG, Type.INT, 1024 * 1024, Range.atLeast(1024), Importance.MEDIUM, REQUEST_MAX_BYTES_DOC)
        .define(NUM_NETWORK_THREADS_CONFIG, Type.INT, 2, Range.atLeast(1), Importance.LOW, NUM_NETWORK_THREADS_DOC)
        .define(NUM_IO_THREADS_CONFIG, Type.INT, 8, Range.atLeast(1), Importance.LOW, NUM_IO_THREADS_DOC)
        .define(SCHEMA_ID_BASE_CONFIG, Type.INT, 0, Range.atLeast(0), Importance.MEDIUM, SCHEMA_ID_BASE_DOC)
        .define(ZOOKEEPER_RETRY_BACKOFF_MS_CONFIG, Type.INT, 100, Range.atLeast(1), Importance.LOW,
            ZOOKEEPER_RETRY_BACKOFF_MS_DOC);

    private final List<URI> listeners;

    public SchemaRegistryConfig(Map<?, ?> props) {
        super(CONFIG, props);
        this.listeners = parseListeners(getList(LISTENERS_CONFIG));
    }

    public List<URI> listeners() {
        return listeners;
    }

    public String zookeeperConnect() {
        return getString(ZOOKEEPER_CONNECT_CONFIG);
    }

    public int zookeeperSessionTimeoutMs() {
        return getInt(ZOOKEEPER_SESSION_TIMEOUT_MS_CONFIG);
    }

    public int zookeeperConnectionTimeoutMs() {
        return getInt(ZOOKEEPER_CONNECTION_TIMEOUT_MS_CONFIG);
    }

    public int zookeeperRetryBackoffMs() {
        return getInt(ZOOKEEPER_RETRY_BACKOFF_MS_CONFIG);
    }

    public CompatibilityLevel defaultCompatibilityLevel() {
        return CompatibilityLevel.valueOf(getString(SCHEMA_COMPATIBILITY_LEVEL_CONFIG));
    }

    public int requestMaxBytes() {
        return getInt(REQUEST_MAX_BYTES_CONFIG);
    }

    public int numNetworkThreads() {
        return getInt(NUM_NETWORK_THREADS_CONFIG);
    }

    public int schemaIdBase() {
        return getInt(SCHEMA_ID_BASE_CONFIG);
    }

    public int numIoThreads() {
        return getInt(NUM_IO_THREADS_CONFIG);
    }

    private static void validateListeners(String name, Object value) {
        parseListeners((List<?>) value);
    }

    private static List<URI> parseListeners(List<?> values) {
        if (values.isEmpty()) {
            throw new ConfigException(LISTENERS_CONFIG, values, "at least one listener is needed");
        }
        List<URI> listeners = new ArrayList<>();
        for (Object value : values) {
            listeners.add(parseListener(String.valueOf(value)));
        }
        return List.copyOf(listeners);
    }

    private static URI parseListener(String listener) {
        URI uri;
        try {
            uri = URI.create(listener);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(LISTENERS_CONFIG, listener, "not a URL: " + e.getMessage());
        }
        if (!"http".equals(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 0) {
            throw new ConfigException(LISTENERS_CONFIG, listener, "expected http://host:port (only http is served)");
        }
        return uri;
    }
}
