package io.millrace.broker.cluster;

import io.millrace.common.config.AbstractConfig;
import io.millrace.common.config.ConfigDef;
import io.millrace.common.config.ConfigDef.Importance;
import io.millrace.common.config.ConfigDef.Range;
import io.millrace.common.config.ConfigDef.Type;
import java.time.Duration;
import java.util.Map;

/**
 * The broker's cluster settings: its id and rack, and how it talks to ZooKeeper. Names and
 * defaults are Kafka's where the meaning is the same. The broker server's own configuration adds
 * its settings to a {@link ConfigDef#copy() copy} of {@link #CONFIG_DEF}.
 */
public final class ClusterConfig extends AbstractConfig {

    public static final String BROKER_ID_CONFIG = "broker.id";
    private static final String BROKER_ID_DOC = "The id of this broker, unique in the cluster. It names the broker's "
        + "registration znode and is what partition assignments refer to.";

    public static final String BROKER_RACK_CONFIG = "broker.rack";
    private static final String BROKER_RACK_DOC = "The rack (or availability zone) of this broker, published in its "
        + "registration. When every broker has one, the controller places a partition's replicas on as many racks as "
        + "it can. Empty for none.";

    public static final String ZOOKEEPER_CONNECT_CONFIG = "zookeeper.connect";
    private static final String ZOOKEEPER_CONNECT_DOC = "ZooKeeper servers as host:port[,host:port...], optionally "
        + "followed by a chroot path (host:port/path) under which Millrace keeps its /millrace tree.";

    public static final String ZOOKEEPER_SESSION_TIMEOUT_MS_CONFIG = "zookeeper.session.timeout.ms";
    private static final String ZOOKEEPER_SESSION_TIMEOUT_MS_DOC = "ZooKeeper session timeout. A broker cut off from "
        + "ZooKeeper for longer loses its session: its registration disappears and it registers again when it "
        + "reconnects. The server may narrow it to between 2 and 20 times its tickTime.";

    public static final String ZOOKEEPER_CONNECTION_TIMEOUT_MS_CONFIG = "zookeeper.connection.timeout.ms";
    private static final String ZOOKEEPER_CONNECTION_TIMEOUT_MS_DOC = "How long startup waits for the first "
        + "ZooKeeper connection and the first complete metadata view, and how long one ZooKeeper operation "
        + "waits for a connection before failing.";

    public static final String ZOOKEEPER_RETRY_BACKOFF_MS_CONFIG = "zookeeper.retry.backoff.ms";
    private static final String ZOOKEEPER_RETRY_BACKOFF_MS_DOC = "First wait before retrying a ZooKeeper operation "
        + "that failed on a lost connection; it doubles on each retry up to ten times this value.";

    public static final String TOPIC_ADMIN_TIMEOUT_MS_CONFIG = "topic.admin.timeout.ms";
    private static final String TOPIC_ADMIN_TIMEOUT_MS_DOC = "How long a topic creation or deletion waits for the "
        + "controller to carry it out and for this broker to see the result, when the request gives no timeout "
        + "of its own. A request not taken up by then is withdrawn.";

    public static final String AUTO_LEADER_REBALANCE_ENABLE_CONFIG = "auto.leader.rebalance.enable";
    private static final String AUTO_LEADER_REBALANCE_ENABLE_DOC = "Whether the controller moves the leadership of "
        + "each partition back to its preferred replica (the first in its replica list) when that replica is live and "
        + "in sync, checking every leader.imbalance.check.interval.seconds.";

    public static final String LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS_CONFIG = "leader.imbalance.check.interval.seconds";
    private static final String LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS_DOC = "How often the controller looks for "
        + "partitions led by another replica than their preferred one.";

    public static final String CONTROLLED_SHUTDOWN_ENABLE_CONFIG = "controlled.shutdown.enable";
    private static final String CONTROLLED_SHUTDOWN_ENABLE_DOC = "Whether a broker shutting down first asks the "
        + "controller to move the leadership of its partitions to other in-sync replicas, so that clients switch "
        + "leaders without waiting for its session to expire.";

    public static final String CONTROLLED_SHUTDOWN_TIMEOUT_MS_CONFIG = "controlled.shutdown.timeout.ms";
    private static final String CONTROLLED_SHUTDOWN_TIMEOUT_MS_DOC = "How long a broker shutting down waits for the "
        + "controller to move its leaderships away before it shuts down all the same.";

    public static final ConfigDef CONFIG_DEF = new ConfigDef()
        .define(BROKER_ID_CONFIG, Type.INT, ConfigDef.NO_DEFAULT, Range.atLeast(0), Importance.HIGH, BROKER_ID_DOC)
        .define(BROKER_RACK_CONFIG, Type.STRING, null, Importance.LOW, BROKER_RACK_DOC)
        .define(ZOOKEEPER_CONNECT_CONFIG, Type.STRING, ConfigDef.NO_DEFAULT, Importance.HIGH, ZOOKEEPER_CONNECT_DOC)
        .define(ZOOKEEPER_SESSION_TIMEOUT_MS_CONFIG, Type.INT, 18_000, Range.atLeast(1), Importance.HIGH,
            ZOOKEEPER_SESSION_TIMEOUT_MS_DOC)
        .define(ZOOKEEPER_CONNECTION_TIMEOUT_MS_CONFIG, Type.INT, 18_000, Range.atLeast(1), Importance.MEDIUM,
            ZOOKEEPER_CONNECTION_TIMEOUT_MS_DOC)
        .define(ZOOKEEPER_RETRY_BACKOFF_MS_CONFIG, Type.INT, 100, Range.atLeast(1), Importance.LOW,
            ZOOKEEPER_RETRY_BACKOFF_MS_DOC)
        .define(TOPIC_ADMIN_TIMEOUT_MS_CONFIG, Type.INT, 30_000, Range.atLeast(1), Importance.MEDIUM,
            TOPIC_ADMIN_TIMEOUT_MS_DOC)
        .define(AUTO_LEADER_REBALANCE_ENABLE_CONFIG, Type.BOOLEAN, true, Importance.HIGH, AUTO_LEADER_REBALANCE_ENABLE_DOC)
        .define(LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS_CONFIG, Type.LONG, 300L, Range.atLeast(1), Importance.HIGH,
            LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS_DOC)
        .define(CONTROLLED_SHUTDOWN_ENABLE_CONFIG, Type.BOOLEAN, true, Importance.MEDIUM, CONTROLLED_SHUTDOWN_ENABLE_DOC)
        .define(CONTROLLED_SHUTDOWN_TIMEOUT_MS_CONFIG, Type.LONG, 30_000L, Range.atLeast(0), Importance.MEDIUM,
            CONTROLLED_SHUTDOWN_TIMEOUT_MS_DOC);

    public ClusterConfig(Map<?, ?> props) {
        super(CONFIG_DEF, props);
    }

    public int brokerId() {
        return getInt(BROKER_ID_CONFIG);
    }

    /** The configured rack, or null when none (an empty value counts as none). */
    public String rack() {
        String rack = getString(BROKER_RACK_CONFIG);
        return rack == null || rack.isEmpty() ? null : rack;
    }

    public String zookeeperConnect() {
        return getString(ZOOKEEPER_CONNECT_CONFIG);
    }

    public int sessionTimeoutMs() {
        return getInt(ZOOKEEPER_SESSION_TIMEOUT_MS_CONFIG);
    }

    public int connectionTimeoutMs() {
        return getInt(ZOOKEEPER_CONNECTION_TIMEOUT_MS_CONFIG);
    }

    public int retryBackoffMs() {
        return getInt(ZOOKEEPER_RETRY_BACKOFF_MS_CONFIG);
    }

    public Duration topicAdminTimeout() {
        return Duration.ofMillis(getInt(TOPIC_ADMIN_TIMEOUT_MS_CONFIG));
    }

    /** How often leadership goes back to preferred replicas; zero when it does not. */
    public Duration leaderRebalanceInterval() {
        return getBoolean(AUTO_LEADER_REBALANCE_ENABLE_CONFIG)
            ? Duration.ofSeconds(getLong(LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS_CONFIG)) : Duration.ZERO;
    }

    public boolean controlledShutdownEnable() {
        return getBoolean(CONTROLLED_SHUTDOWN_ENABLE_CONFIG);
    }

    public Duration controlledShutdownTimeout() {
        return Duration.ofMillis(getLong(CONTROLLED_SHUTDOWN_TIMEOUT_MS_CONFIG));
    }
}
