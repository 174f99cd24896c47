package io.millrace.broker.server;

import io.millrace.broker.cluster.ClusterSnapshot;
import io.millrace.broker.cluster.MetadataCache;
import io.millrace.broker.cluster.PartitionState;
import io.millrace.broker.log.LeaderEpochCache;
import io.millrace.broker.log.Log;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.OffsetForLeaderEpochRequest;
import io.millrace.common.protocol.message.OffsetForLeaderEpochRequest.OffsetForLeaderPartition;
import io.millrace.common.protocol.message.OffsetForLeaderEpochRequest.OffsetForLeaderTopic;
import io.millrace.common.protocol.message.OffsetForLeaderEpochResponse;
import io.millrace.common.protocol.message.OffsetForLeaderEpochResponse.EpochEndOffset;
import io.millrace.common.protocol.message.OffsetForLeaderEpochResponse.OffsetForLeaderTopicResult;
import java.util.ArrayList;
import java.util.List;

/**
 * The end offset of a leader epoch, for a follower that checks its log against its new leader's
 * after a leader change (and truncates what the leader never had), and for a consumer that checks
 * its position. Answered from the leader's {@link io.millrace.broker.log.LeaderEpochCache}, as
 * Kafka answers:
 * <ul>
 * <li>the partition's current leader epoch is the one its state names (and Metadata reports), or
 *     the log's latest epoch if that is newer; current_leader_epoch -1 is not checked, a larger
 *     one is UNKNOWN_LEADER_EPOCH (newer than the broker knows), a smaller one
 *     FENCED_LEADER_EPOCH;</li>
 * <li>leader_epoch, the current epoch: that epoch and the log end offset (whether or not a batch of
 *     the log carries it yet: the leader records its epoch when it takes over);</li>
 * <li>an earlier epoch: the largest epoch at or below it and the start offset of the next epoch;
 *     one below every epoch the log still has: itself and the first epoch's start offset;</li>
 * <li>leader_epoch -1, one above the latest, or any other epoch of a log without epochs (its
 *     batches written without one): epoch and offset -1 (Kafka's UNDEFINED_EPOCH and
 *     UNDEFINED_EPOCH_OFFSET) with no error;</li>
 * <li>a partition the cluster lacks: UNKNOWN_TOPIC_OR_PARTITION; one led elsewhere, or whose log is
 *     not open here yet: NOT_LEADER_OR_FOLLOWER.</li>
 * </ul>
 */
final class OffsetForLeaderEpochHandler implements ApiHandler {

    private final MetadataCache metadata;
    private final LocalPartitions partitions;

    OffsetForLeaderEpochHandler(MetadataCache metadata, LocalPartitions partitions) {
        this.metadata = metadata;
        this.partitions = partitions;
    }

    @Override
    public void handle(Request request) {
        OffsetForLeaderEpochRequest body = request.body();
        ClusterSnapshot snapshot = metadata.snapshot();
        List<OffsetForLeaderTopicResult> topics = new ArrayList<>(body.topics().size());
        for (OffsetForLeaderTopic topic : body.topics()) {
            List<EpochEndOffset> results = new ArrayList<>(topic.partitions().size());
            for (OffsetForLeaderPartition partition : topic.partitions()) {
                results.add(endOffset(snapshot, topic.topic(), partition));
            }
            topics.add(new OffsetForLeaderTopicResult(topic.topic(), results));
        }
        request.respond(new OffsetForLeaderEpochResponse(0, topics));
    }

    private EpochEndOffset endOffset(ClusterSnapshot snapshot, String topic, OffsetForLeaderPartition partition) {
        int index = partition.partition();
        try {
            Log log = partitions.leaderLog(snapshot, topic, index);
            int latest = log.latestEpoch();
            int current = Math.max(latest, snapshot.partitionState(topic, index).map(PartitionState::leaderEpoch)
                .orElse(LeaderEpochCache.UNDEFINED_EPOCH));
            checkCurrentEpoch(partition.currentLeaderEpoch(), current);
            if (partition.leaderEpoch() == current && latest < current) {
                // The leader's epoch, which no batch of its log carries yet: it runs to the log end.
                return new EpochEndOffset(Errors.NONE.code(), index, current, log.logEndOffset());
            }
            LeaderEpochCache.EpochEndOffset found = log.endOffsetForEpoch(partition.leaderEpoch());
            return new EpochEndOffset(Errors.NONE.code(), index, found.epoch(), found.endOffset());
        } catch (RuntimeException e) {
            return EpochEndOffset.error(index, ServerErrors.forException(e));
        }
    }

    private static void checkCurrentEpoch(int asked, int current) {
        if (asked == LeaderEpochCache.UNDEFINED_EPOCH) {
            return;
        }
        if (asked > current) {
            throw new ApiException(Errors.UNKNOWN_LEADER_EPOCH, "Leader epoch " + asked + " is newer than this broker's, "
                + current);
        }
        if (asked < current) {
            throw new ApiException(Errors.FENCED_LEADER_EPOCH, "Leader epoch " + asked + " is older than this broker's, "
                + current);
        }
    }
}
