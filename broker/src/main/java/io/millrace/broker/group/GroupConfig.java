package io.millrace.broker.group;

import io.millrace.common.config.AbstractConfig;
import io.millrace.common.config.ConfigDef;
import io.millrace.common.config.ConfigDef.Importance;
import io.millrace.common.config.ConfigDef.Range;
import io.millrace.common.config.ConfigDef.Type;
import java.util.Map;

/**
 * The group coordinator's settings, under Kafka's names and with Kafka's defaults, parsed from the
 * broker's properties.
 */
public final class GroupConfig extends AbstractConfig {

    public static final String GROUP_MIN_SESSION_TIMEOUT_MS_CONFIG = "group.min.session.timeout.ms";
    private static final String GROUP_MIN_SESSION_TIMEOUT_MS_DOC = "The shortest session.timeout.ms a member may ask "
        + "for; a JoinGroup asking for less gets INVALID_SESSION_TIMEOUT. Shorter sessions find dead members sooner "
        + "at the cost of more heartbeats.";

    public static final String GROUP_MAX_SESSION_TIMEOUT_MS_CONFIG = "group.max.session.timeout.ms";
    private static final String GROUP_MAX_SESSION_TIMEOUT_MS_DOC = "The longest session.timeout.ms a member may ask "
        + "for; a JoinGroup asking for more gets INVALID_SESSION_TIMEOUT.";

    public static final String GROUP_MAX_SIZE_CONFIG = "group.max.size";
    private static final String GROUP_MAX_SIZE_DOC = "The most members one group may hold, counting those that have "
        + "asked for a member id and not yet joined with it. A join beyond it gets GROUP_MAX_SIZE_REACHED, which "
        + "bounds the memory a storm of joining clients can take.";

    public static final String OFFSETS_RETENTION_MINUTES_CONFIG = "offsets.retention.minutes";
    private static final String OFFSETS_RETENTION_MINUTES_DOC = "How long the committed offsets of a Kafka-protocol "
        + "group are kept once the group has no members (counted from when it became empty, or from the last commit "
        + "of a group that never had members, such as a consumer that only assigns partitions). Offsets of a group "
        + "with members never expire.";

    public static final String OFFSETS_RETENTION_CHECK_INTERVAL_MS_CONFIG = "offsets.retention.check.interval.ms";
    private static final String OFFSETS_RETENTION_CHECK_INTERVAL_MS_DOC = "How often the coordinator looks for "
        + "expired offsets of the groups it coordinates.";

    public static final String GROUP_INITIAL_REBALANCE_DELAY_MS_CONFIG = "group.initial.rebalance.delay.ms";
    private static final String GROUP_INITIAL_REBALANCE_DELAY_MS_DOC = "How long the coordinator holds a group's first "
        + "rebalance after its first member joins an empty group, so that members starting together land in one "
        + "generation instead of the first getting one of its own and the others a second rebalance. While members join "
        + "during it the delay runs again, up to the rebalance timeout in all. Kafka's default of 3 s suits "
        + "consumers started seconds apart at the cost of 3 s or more before any new group reads; at 0 the "
        + "rebalance still completes from a timer, after JoinGroups already arriving, which is enough for members "
        + "started together.";

    public static final String OFFSETS_TOPIC_NUM_PARTITIONS_CONFIG = "offsets.topic.num.partitions";
    private static final String OFFSETS_TOPIC_NUM_PARTITIONS_DOC = "The partitions of __consumer_offsets, the topic a "
        + "Kafka-protocol group's commits are appended to before they reach the offset registry. Each group's commits go "
        + "to one partition, chosen by the hash of its id as Kafka chooses it, and that partition's leader coordinates "
        + "the group. Read when the topic is created, on the first FindCoordinator.";

    public static final String OFFSETS_TOPIC_REPLICATION_FACTOR_CONFIG = "offsets.topic.replication.factor";
    private static final String OFFSETS_TOPIC_REPLICATION_FACTOR_DOC = "The replication factor of __consumer_offsets. "
        + "Commits are answered once every in-sync replica has them. The topic is made on the first FindCoordinator: "
        + "while fewer brokers are live and some partition is assigned to a broker that is down, it waits for them, "
        + "as Kafka does; in a cluster that never had that many brokers it gets one replica per live broker and a "
        + "WARN says so, where Kafka refuses to create it.";

    public static final String OFFSETS_TOPIC_SEGMENT_BYTES_CONFIG = "offsets.topic.segment.bytes";
    private static final String OFFSETS_TOPIC_SEGMENT_BYTES_DOC = "The segment size of __consumer_offsets. Segments "
        + "whose every commit is in the offset registry are deleted, so the topic holds about one segment a partition.";

    public static final String OFFSETS_COMMIT_TIMEOUT_MS_CONFIG = "offsets.commit.timeout.ms";
    private static final String OFFSETS_COMMIT_TIMEOUT_MS_DOC = "How long a commit waits for the in-sync replicas of "
        + "its __consumer_offsets partition before it is answered REQUEST_TIMED_OUT.";

    public static final String OFFSETS_REGISTRY_WRITE_INTERVAL_MS_CONFIG = "offsets.registry.write.interval.ms";
    private static final String OFFSETS_REGISTRY_WRITE_INTERVAL_MS_DOC = "How often each coordinator writes the commits "
        + "appended to the __consumer_offsets partitions it leads to the offset registry in ZooKeeper, the latest of each "
        + "partition only, in one transaction. Tools reading the registry (bin/millrace consumer-groups) see a commit at "
        + "most this much later; the brokers' OffsetFetch sees it at once. Millrace's own setting.";

    public static final String GROUP_CONSUMER_SESSION_TIMEOUT_MS_CONFIG = "group.consumer.session.timeout.ms";
    private static final String GROUP_CONSUMER_SESSION_TIMEOUT_MS_DOC = "How long a member of a group on the consumer "
        + "group protocol (KIP-848, group.protocol=consumer) stays in it without a ConsumerGroupHeartbeat; then it is "
        + "removed and its partitions go to the others. The member cannot choose it, as it can with the classic protocol.";

    public static final String GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS_CONFIG = "group.consumer.heartbeat.interval.ms";
    private static final String GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS_DOC = "How often members of a group on the consumer "
        + "group protocol send ConsumerGroupHeartbeat, told to them in each answer. Partitions move between members at "
        + "heartbeats, so a rebalance takes one or two intervals; shorter intervals move them sooner at the cost of "
        + "more requests.";

    public static final ConfigDef CONFIG = new ConfigDef()
        .define(GROUP_CONSUMER_SESSION_TIMEOUT_MS_CONFIG, Type.INT, 45_000, Range.atLeast(1), Importance.MEDIUM,
            GROUP_CONSUMER_SESSION_TIMEOUT_MS_DOC)
        .define(GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS_CONFIG, Type.INT, 5_000, Range.atLeast(1), Importance.MEDIUM,
            GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS_DOC)
        .define(GROUP_MIN_SESSION_TIMEOUT_MS_CONFIG, Type.INT, 6_000, Range.atLeast(1), Importance.MEDIUM,
            GROUP_MIN_SESSION_TIMEOUT_MS_DOC)
        .define(GROUP_MAX_SESSION_TIMEOUT_MS_CONFIG, Type.INT, 1_800_000, Range.atLeast(1), Importance.MEDIUM,
            GROUP_MAX_SESSION_TIMEOUT_MS_DOC)
        .define(GROUP_MAX_SIZE_CONFIG, Type.INT, Integer.MAX_VALUE, Range.atLeast(1), Importance.MEDIUM,
            GROUP_MAX_SIZE_DOC)
        .define(OFFSETS_RETENTION_MINUTES_CONFIG, Type.INT, 7 * 24 * 60, Range.atLeast(1), Importance.HIGH,
            OFFSETS_RETENTION_MINUTES_DOC)
        .define(OFFSETS_RETENTION_CHECK_INTERVAL_MS_CONFIG, Type.LONG, 600_000L, Range.atLeast(1), Importance.HIGH,
            OFFSETS_RETENTION_CHECK_INTERVAL_MS_DOC)
        .define(GROUP_INITIAL_REBALANCE_DELAY_MS_CONFIG, Type.INT, 3_000, Range.atLeast(0), Importance.MEDIUM,
            GROUP_INITIAL_REBALANCE_DELAY_MS_DOC)
        .define(OFFSETS_TOPIC_NUM_PARTITIONS_CONFIG, Type.INT, 50, Range.atLeast(1), Importance.HIGH,
            OFFSETS_TOPIC_NUM_PARTITIONS_DOC)
        .define(OFFSETS_TOPIC_REPLICATION_FACTOR_CONFIG, Type.INT, 3, Range.atLeast(1), Importance.HIGH,
            OFFSETS_TOPIC_REPLICATION_FACTOR_DOC)
        .define(OFFSETS_TOPIC_SEGMENT_BYTES_CONFIG, Type.INT, 100 * 1024 * 1024, Range.atLeast(1024), Importance.HIGH,
            OFFSETS_TOPIC_SEGMENT_BYTES_DOC)
        .define(OFFSETS_COMMIT_TIMEOUT_MS_CONFIG, Type.INT, 5_000, Range.atLeast(1), Importance.HIGH,
            OFFSETS_COMMIT_TIMEOUT_MS_DOC)
        .define(OFFSETS_REGISTRY_WRITE_INTERVAL_MS_CONFIG, Type.LONG, 100L, Range.atLeast(1), Importance.MEDIUM,
            OFFSETS_REGISTRY_WRITE_INTERVAL_MS_DOC);

    /** Every setting at its default. */
    public static final GroupConfig DEFAULT = new GroupConfig(Map.of());

    /** Parses and validates the settings; throws ConfigException naming the first bad one. */
    public GroupConfig(Map<?, ?> props) {
        super(CONFIG, props);
    }

    public int consumerSessionTimeoutMs() {
        return getInt(GROUP_CONSUMER_SESSION_TIMEOUT_MS_CONFIG);
    }

    public int consumerHeartbeatIntervalMs() {
        return getInt(GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS_CONFIG);
    }

    public int minSessionTimeoutMs() {
        return getInt(GROUP_MIN_SESSION_TIMEOUT_MS_CONFIG);
    }

    public int maxSessionTimeoutMs() {
        return getInt(GROUP_MAX_SESSION_TIMEOUT_MS_CONFIG);
    }

    public int maxSize() {
        return getInt(GROUP_MAX_SIZE_CONFIG);
    }

    public long offsetsRetentionMs() {
        return getInt(OFFSETS_RETENTION_MINUTES_CONFIG) * 60_000L;
    }

    public int initialRebalanceDelayMs() {
        return getInt(GROUP_INITIAL_REBALANCE_DELAY_MS_CONFIG);
    }

    public int offsetsTopicNumPartitions() {
        return getInt(OFFSETS_TOPIC_NUM_PARTITIONS_CONFIG);
    }

    public int offsetsTopicReplicationFactor() {
        return getInt(OFFSETS_TOPIC_REPLICATION_FACTOR_CONFIG);
    }

    public int offsetsTopicSegmentBytes() {
        return getInt(OFFSETS_TOPIC_SEGMENT_BYTES_CONFIG);
    }

    public int offsetsCommitTimeoutMs() {
        return getInt(OFFSETS_COMMIT_TIMEOUT_MS_CONFIG);
    }

    public long offsetsRegistryWriteIntervalMs() {
        return getLong(OFFSETS_REGISTRY_WRITE_INTERVAL_MS_CONFIG);
    }

    public long offsetsRetentionCheckIntervalMs() {
        return getLong(OFFSETS_RETENTION_CHECK_INTERVAL_MS_CONFIG);
    }
}
