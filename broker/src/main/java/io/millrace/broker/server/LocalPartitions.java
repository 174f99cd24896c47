package io.millrace.broker.server;

import io.millrace.broker.cluster.ClusterSnapshot;
import io.millrace.broker.log.Log;
import io.millrace.broker.log.LogManager;
import io.millrace.common.errors.UnknownTopicOrPartitionException;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;

/**
 * Finds the local log of a partition this broker leads, or says with which error to refuse. Until
 * the broker has started serving ({@link #startServing}) every partition is refused as led
 * elsewhere: while a broker restarted after a crash waits for its old ZooKeeper registration to
 * expire, its logs are open but their topics' settings (segment size, retention, flush policy) are
 * not applied yet, so it must not take records into them.
 */
final class LocalPartitions {

    private final int brokerId;
    private final LogManager logs;
    private volatile boolean serving;

    LocalPartitions(int brokerId, LogManager logs) {
        this.brokerId = brokerId;
        this.logs = logs;
    }

    /** From now on the partitions this broker leads are served. */
    void startServing() {
        serving = true;
    }

    /**
     * @throws UnknownTopicOrPartitionException the cluster has no such partition
     * @throws ApiException NOT_LEADER_OR_FOLLOWER: another broker leads it, its log is not
     *     created here yet, or this broker is still starting (all retriable: the client refreshes its
     *     metadata and tries again)
     */
    Log leaderLog(ClusterSnapshot snapshot, String topic, int partition) {
        checkServed(snapshot, topic, partition);
        int leader = snapshot.leader(topic, partition);
        if (leader != brokerId) {
            throw new ApiException(Errors.NOT_LEADER_OR_FOLLOWER, "Broker " + brokerId + " does not lead " + topic + "-"
                + partition + "; broker " + leader + " does");
        }
        return localLog(topic, partition);
    }

    /**
     * The partition's log here, whether this broker leads it or follows it: what a replica may
     * answer about its own copy (DescribeProducers, as on Kafka).
     *
     * @throws UnknownTopicOrPartitionException the cluster has no such partition
     * @throws ApiException NOT_LEADER_OR_FOLLOWER: no replica of it here, or this broker is still starting
     */
    Log replicaLog(ClusterSnapshot snapshot, String topic, int partition) {
        checkServed(snapshot, topic, partition);
        return localLog(topic, partition);
    }

    private void checkServed(ClusterSnapshot snapshot, String topic, int partition) {
        if (partition < 0 || partition >= snapshot.partitionCount(topic)) {
            throw new UnknownTopicOrPartitionException("This cluster has no partition " + topic + "-" + partition);
        }
        if (!serving) {
            throw new ApiException(Errors.NOT_LEADER_OR_FOLLOWER, "Broker " + brokerId + " is starting: it serves "
                + topic + "-" + partition + " once it has joined the cluster and applied the topics' settings");
        }
    }

    private Log localLog(String topic, int partition) {
        return logs.getLog(topic, partition).orElseThrow(() -> new ApiException(Errors.NOT_LEADER_OR_FOLLOWER,
            "The log of " + topic + "-" + partition + " is not open on broker " + brokerId + " yet"));
    }
}
