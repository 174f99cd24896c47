package io.millrace.broker.server;

import io.millrace.broker.cluster.ClusterSnapshot;
import io.millrace.broker.log.Log;
import io.millrace.broker.log.LogManager;
import io.millrace.common.errors.UnknownTopicOrPartitionException;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;

/** Finds the local log of a partition this broker leads, or says with which error to refuse. */
final class LocalPartitions {

    private final int brokerId;
    private final LogManager logs;

    LocalPartitions(int brokerId, LogManager logs) {
        this.brokerId = brokerId;
        this.logs = logs;
    }

    /**
     * @throws UnknownTopicOrPartitionException the cluster has no such partition
     * @throws ApiException NOT_LEADER_OR_FOLLOWER: another broker leads it, or its log is not
     *     created here yet (both retriable: the client refreshes its metadata)
     */
    Log leaderLog(ClusterSnapshot snapshot, String topic, int partition) {
        if (partition < 0 || partition >= snapshot.partitionCount(topic)) {
            throw new UnknownTopicOrPartitionException("This cluster has no partition " + topic + "-" + partition);
        }
        int leader = snapshot.leader(topic, partition);
        if (leader != brokerId) {
            throw new ApiException(Errors.NOT_LEADER_OR_FOLLOWER, "Broker " + brokerId + " does not lead " + topic + "-"
                + partition + "; broker " + leader + " does");
        }
        return logs.getLog(topic, partition).orElseThrow(() -> new ApiException(Errors.NOT_LEADER_OR_FOLLOWER,
            "The log of " + topic + "-" + partition + " is not open on broker " + brokerId + " yet"));
    }
}
