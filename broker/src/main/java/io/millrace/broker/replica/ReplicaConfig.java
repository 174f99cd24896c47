package io.millrace.broker.replica;

import io.millrace.common.config.AbstractConfig;
import io.millrace.common.config.ConfigDef;
import io.millrace.common.config.ConfigDef.Importance;
import io.millrace.common.config.ConfigDef.Range;
import io.millrace.common.config.ConfigDef.Type;
import java.util.Map;

/**
 * The replica manager's settings, under Kafka's names and with Kafka's defaults, parsed from the
 * broker's properties: how followers fetch from leaders, and when a leader drops a lagging follower
 * from the in-sync replicas.
 */
public final class ReplicaConfig extends AbstractConfig {

    public static final String REPLICA_LAG_TIME_MAX_MS_CONFIG = "replica.lag.time.max.ms";
    private static final String REPLICA_LAG_TIME_MAX_MS_DOC = "A follower that has not caught up to the leader's log "
        + "end offset for this long (or has not fetched at all) is removed from the in-sync replicas; it rejoins "
        + "once it has fetched up to the high watermark again.";

    public static final String REPLICA_FETCH_MAX_BYTES_CONFIG = "replica.fetch.max.bytes";
    private static final String REPLICA_FETCH_MAX_BYTES_DOC = "The bytes a follower asks for per partition in each "
        + "fetch. Not an absolute maximum: a first batch larger than this is still returned whole, so replication "
        + "always makes progress.";

    public static final String REPLICA_FETCH_RESPONSE_MAX_BYTES_CONFIG = "replica.fetch.response.max.bytes";
    private static final String REPLICA_FETCH_RESPONSE_MAX_BYTES_DOC = "The bytes a follower asks for in a whole "
        + "fetch response (with the same first-batch exception).";

    public static final String REPLICA_FETCH_WAIT_MAX_MS_CONFIG = "replica.fetch.wait.max.ms";
    private static final String REPLICA_FETCH_WAIT_MAX_MS_DOC = "How long a follower's fetch waits in the leader for "
        + "data. Keep it below replica.lag.time.max.ms, or idle followers would be seen as lagging.";

    public static final String REPLICA_FETCH_MIN_BYTES_CONFIG = "replica.fetch.min.bytes";
    private static final String REPLICA_FETCH_MIN_BYTES_DOC = "The bytes a follower's fetch waits for in the leader "
        + "before it is answered (or replica.fetch.wait.max.ms passes).";

    public static final String REPLICA_FETCH_BACKOFF_MS_CONFIG = "replica.fetch.backoff.ms";
    private static final String REPLICA_FETCH_BACKOFF_MS_DOC = "How long a follower waits before fetching again "
        + "from a leader whose fetch failed (unreachable, or an error for the partition).";

    public static final String NUM_REPLICA_FETCHERS_CONFIG = "num.replica.fetchers";
    private static final String NUM_REPLICA_FETCHERS_DOC = "The fetcher threads per source broker; the partitions "
        + "a broker follows from one leader are spread over them by hash.";

    public static final String REPLICA_SOCKET_TIMEOUT_MS_CONFIG = "replica.socket.timeout.ms";
    private static final String REPLICA_SOCKET_TIMEOUT_MS_DOC = "How long a follower waits for the leader's answer to "
        + "a request before it drops the connection and tries again; at least replica.fetch.wait.max.ms.";

    public static final String REPLICA_SOCKET_RECEIVE_BUFFER_BYTES_CONFIG = "replica.socket.receive.buffer.bytes";
    private static final String REPLICA_SOCKET_RECEIVE_BUFFER_BYTES_DOC = "The SO_RCVBUF of a follower's connections to "
        + "leaders; -1, the default, leaves its size to the OS, which grows it with the connection's bandwidth and round "
        + "trip (Kafka fixes 65536).";

    public static final ConfigDef CONFIG = new ConfigDef()
        .define(REPLICA_LAG_TIME_MAX_MS_CONFIG, Type.LONG, 30_000L, Range.atLeast(1), Importance.HIGH,
            REPLICA_LAG_TIME_MAX_MS_DOC)
        .define(REPLICA_FETCH_MAX_BYTES_CONFIG, Type.INT, 1_048_576, Range.atLeast(0), Importance.MEDIUM,
            REPLICA_FETCH_MAX_BYTES_DOC)
        .define(REPLICA_FETCH_RESPONSE_MAX_BYTES_CONFIG, Type.INT, 10_485_760, Range.atLeast(0), Importance.MEDIUM,
            REPLICA_FETCH_RESPONSE_MAX_BYTES_DOC)
        .define(REPLICA_FETCH_WAIT_MAX_MS_CONFIG, Type.INT, 500, Range.atLeast(0), Importance.MEDIUM,
            REPLICA_FETCH_WAIT_MAX_MS_DOC)
        .define(REPLICA_FETCH_MIN_BYTES_CONFIG, Type.INT, 1, Range.atLeast(1), Importance.MEDIUM,
            REPLICA_FETCH_MIN_BYTES_DOC)
        .define(REPLICA_FETCH_BACKOFF_MS_CONFIG, Type.INT, 1_000, Range.atLeast(0), Importance.MEDIUM,
            REPLICA_FETCH_BACKOFF_MS_DOC)
        .define(NUM_REPLICA_FETCHERS_CONFIG, Type.INT, 1, Range.atLeast(1), Importance.HIGH, NUM_REPLICA_FETCHERS_DOC)
        .define(REPLICA_SOCKET_TIMEOUT_MS_CONFIG, Type.INT, 30_000, Range.atLeast(1), Importance.HIGH,
            REPLICA_SOCKET_TIMEOUT_MS_DOC)
        .define(REPLICA_SOCKET_RECEIVE_BUFFER_BYTES_CONFIG, Type.INT, -1, Range.atLeast(-1), Importance.HIGH,
            REPLICA_SOCKET_RECEIVE_BUFFER_BYTES_DOC);

    /** Every setting at its default. */
    public static final ReplicaConfig DEFAULT = new ReplicaConfig(Map.of());

    /** Parses and validates the settings; throws ConfigException naming the first bad one. */
    public ReplicaConfig(Map<?, ?> props) {
        super(CONFIG, props);
    }

    public long lagTimeMaxMs() {
        return getLong(REPLICA_LAG_TIME_MAX_MS_CONFIG);
    }

    public int fetchMaxBytes() {
        return getInt(REPLICA_FETCH_MAX_BYTES_CONFIG);
    }

    public int fetchResponseMaxBytes() {
        return getInt(REPLICA_FETCH_RESPONSE_MAX_BYTES_CONFIG);
    }

    public int fetchWaitMaxMs() {
        return getInt(REPLICA_FETCH_WAIT_MAX_MS_CONFIG);
    }

    public int fetchMinBytes() {
        return getInt(REPLICA_FETCH_MIN_BYTES_CONFIG);
    }

    public int fetchBackoffMs() {
        return getInt(REPLICA_FETCH_BACKOFF_MS_CONFIG);
    }

    public int numFetchers() {
        return getInt(NUM_REPLICA_FETCHERS_CONFIG);
    }

    public int socketTimeoutMs() {
        return getInt(REPLICA_SOCKET_TIMEOUT_MS_CONFIG);
    }

    public int socketReceiveBufferBytes() {
        return getInt(REPLICA_SOCKET_RECEIVE_BUFFER_BYTES_CONFIG);
    }
}
