package io.millrace.broker.log;

import io.millrace.common.config.ConfigDef;
import io.millrace.common.config.ConfigDef.Importance;
import io.millrace.common.config.ConfigDef.Range;
import io.millrace.common.config.ConfigDef.Type;

/**
 * The replication settings a topic may override, declared once under Kafka's names, which are the
 * same for broker and topic: how many in-sync replicas an acks=all produce needs, and whether a
 * replica out of sync may lead. {@link LogConfig} holds them in its {@link LogConfig#BROKER_CONFIG}
 * and {@link LogConfig#TOPIC_CONFIG} and resolves their values; how followers fetch is
 * {@code ReplicaConfig}'s. Stateless.
 */
public final class TopicReplicationConfig {

    public static final String MIN_INSYNC_REPLICAS_CONFIG = "min.insync.replicas";
    static final String MIN_INSYNC_REPLICAS_DOC = "The fewest in-sync replicas (the leader included) a partition must "
        + "have for a produce with acks=all to be accepted; with fewer it is refused with NOT_ENOUGH_REPLICAS. Has no "
        + "effect on acks=0 or acks=1.";

    public static final String UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG = "unclean.leader.election.enable";
    static final String UNCLEAN_LEADER_ELECTION_ENABLE_DOC = "Whether the controller may make a replica that is not in "
        + "sync the leader when no in-sync replica is live. It brings the partition back at the cost of the records "
        + "the lost replicas had acknowledged; when false the partition stays offline until an in-sync replica returns.";

    private TopicReplicationConfig() {
    }

    /** Adds the broker's replica settings to {@code def}. */
    static ConfigDef defineBrokerSettings(ConfigDef def) {
        return def
        .define(MIN_INSYNC_REPLICAS_CONFIG, Type.INT, 1, Range.atLeast(1), Importance.HIGH, MIN_INSYNC_REPLICAS_DOC)
        .define(UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG, Type.BOOLEAN, false, Importance.HIGH,
            UNCLEAN_LEADER_ELECTION_ENABLE_DOC);
    }

    /** Adds their topic overrides, under the same names, to {@code def}. */
    static ConfigDef defineTopicSettings(ConfigDef def) {
        return def
        .define(MIN_INSYNC_REPLICAS_CONFIG, Type.INT, null, Range.atLeast(1), Importance.HIGH,
            LogConfig.overrides(MIN_INSYNC_REPLICAS_CONFIG))
        .define(UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG, Type.BOOLEAN, null, Importance.HIGH,
            LogConfig.overrides(UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG));
    }
}
