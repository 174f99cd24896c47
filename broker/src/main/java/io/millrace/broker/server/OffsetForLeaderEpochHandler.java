package io.millrace.broker.server;

import io.millrace.broker.cluster.ClusterSnapshot;
import io.millrace.broker.cluster.MetadataCache;
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
 * The end offset of a leader epoch, for a client that checks its position against the log after
 * a leader change. Millrace has no replication and so no leader elections: a partition keeps one
 * leader, in one epoch, from its creation on, and that epoch is {@value #LEADER_EPOCH}, "no
 * epoch", the value Metadata reports as each partition's leader epoch and that every stored batch
 * keeps as its PartitionLeaderEpoch. (Kafka's clients therefore never validate positions against a
 * Millrace broker and send this request only when told an epoch elsewhere.) The answers follow:
 * <ul>
 * <li>current_leader_epoch -1 is not checked; a larger one is UNKNOWN_LEADER_EPOCH (newer than the
 *     broker's, Kafka's rule), a smaller one FENCED_LEADER_EPOCH;</li>
 * <li>leader_epoch {@value #LEADER_EPOCH}, the current epoch: that epoch and the log end offset;</li>
 * <li>any other leader_epoch, an epoch this partition never had: epoch and offset -1 (Kafka's
 *     UNDEFINED_EPOCH and UNDEFINED_EPOCH_OFFSET) with no error, as Kafka answers an epoch above its
 *     latest;</li>
 * <li>a partition the cluster lacks: UNKNOWN_TOPIC_OR_PARTITION; one led elsewhere, or whose log is
 *     not open here yet: NOT_LEADER_OR_FOLLOWER.</li>
 * </ul>
 * Replication will give partitions real epochs (a leader epoch cache per log); this handler is
 * where their end offsets will be looked up.
 */
final class OffsetForLeaderEpochHandler implements ApiHandler {

    /** The leader epoch of every Millrace partition: none, as Metadata says. */
    static final int LEADER_EPOCH = -1;

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
            checkCurrentEpoch(partition.currentLeaderEpoch());
            if (partition.leaderEpoch() != LEADER_EPOCH) {
                return new EpochEndOffset(Errors.NONE.code(), index, OffsetForLeaderEpochResponse.UNDEFINED_EPOCH,
                    OffsetForLeaderEpochResponse.UNDEFINED_EPOCH_OFFSET);
            }
            return new EpochEndOffset(Errors.NONE.code(), index, LEADER_EPOCH, log.logEndOffset());
        } catch (RuntimeException e) {
            return EpochEndOffset.error(index, ServerErrors.forException(e));
        }
    }

    private static void checkCurrentEpoch(int current) {
        if (current > LEADER_EPOCH) {
            throw new ApiException(Errors.UNKNOWN_LEADER_EPOCH, "Leader epoch " + current + " is newer than this broker's, "
                + "which has none");
        }
        if (current < LEADER_EPOCH) {
            throw new ApiException(Errors.FENCED_LEADER_EPOCH, "Leader epoch " + current + " is older than this broker's");
        }
    }
}
