package io.millrace.broker.server;

import io.millrace.broker.cluster.ClusterSnapshot;
import io.millrace.broker.cluster.MetadataCache;
import io.millrace.broker.log.Log;
import io.millrace.broker.log.TimestampAndOffset;
import io.millrace.broker.replica.Partition;
import io.millrace.broker.replica.ReplicaManager;
import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.ListOffsetsRequest;
import io.millrace.common.protocol.message.ListOffsetsRequest.ListOffsetsPartition;
import io.millrace.common.protocol.message.ListOffsetsRequest.ListOffsetsTopic;
import io.millrace.common.protocol.message.ListOffsetsResponse;
import io.millrace.common.protocol.message.ListOffsetsResponse.ListOffsetsPartitionResponse;
import io.millrace.common.protocol.message.ListOffsetsResponse.ListOffsetsTopicResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Offsets by time, version 1 and later semantics: -2 the log start offset, -1 (and, without
 * tiered storage, -4) the log end offset, both with timestamp -1 (for a replicated partition -1 is
 * the high watermark, the end of what consumers may read); otherwise the first record at or
 * after the timestamp, with its timestamp, or offset and timestamp -1 when every record is older.
 * A read-committed lookup (isolation level 1, version 2 and later) gets the last stable offset
 * for -1 instead: the first offset of the oldest open transaction when it is lower.
 * -3 (version 7 and later) the first record carrying the largest timestamp, with that timestamp,
 * or offset and timestamp -1 for a log without records. Below version 7, where Kafka's clients
 * never send -3 (they fail the lookup with an UnsupportedVersionException instead), a -3 is
 * answered UNSUPPORTED_VERSION for its partition. Other negative timestamps: INVALID_REQUEST. From
 * version 4 each offset comes with a leader epoch: the partition's current one with the high watermark,
 * otherwise that of the records at the offset, from the log's leader epochs.
 */
final class ListOffsetsHandler implements ApiHandler {

    /** The first version that may ask for {@link ListOffsetsRequest#MAX_TIMESTAMP} (KIP-734). */
    static final short MAX_TIMESTAMP_MIN_VERSION = 7;

    private final MetadataCache metadata;
    private final LocalPartitions partitions;
    private final ReplicaManager replicas;

    ListOffsetsHandler(MetadataCache metadata, LocalPartitions partitions, ReplicaManager replicas) {
        this.metadata = metadata;
        this.partitions = partitions;
        this.replicas = replicas;
    }

    @Override
    public void handle(Request request) {
        ListOffsetsRequest body = request.body();
        ClusterSnapshot snapshot = metadata.snapshot();
        List<ListOffsetsTopicResponse> topics = new ArrayList<>(body.topics().size());
        for (ListOffsetsTopic topic : body.topics()) {
            List<ListOffsetsPartitionResponse> results = new ArrayList<>(topic.partitions().size());
            for (ListOffsetsPartition partition : topic.partitions()) {
                results.add(lookUp(snapshot, topic.name(), partition, request.version(), body.isolationLevel() == 1));
            }
            topics.add(new ListOffsetsTopicResponse(topic.name(), results));
        }
        request.respond(new ListOffsetsResponse(0, topics));
    }

    private ListOffsetsPartitionResponse lookUp(ClusterSnapshot snapshot, String topic, ListOffsetsPartition partition,
                                                short version, boolean readCommitted) {
        int index = partition.partitionIndex();
        try {
            boolean maxTimestamp = partition.timestamp() == ListOffsetsRequest.MAX_TIMESTAMP;
            if (maxTimestamp && version < MAX_TIMESTAMP_MIN_VERSION) {
                throw new ApiException(Errors.UNSUPPORTED_VERSION,
                    "Timestamp -3 (max timestamp) needs ListOffsets version " + MAX_TIMESTAMP_MIN_VERSION + " or later");
            }
            Log log = partitions.leaderLog(snapshot, topic, index);
            Optional<Partition> replicated = replicas.partition(snapshot, new TopicPartition(topic, index));
            if (partition.timestamp() == ListOffsetsRequest.LATEST_TIMESTAMP && (replicated.isPresent() || readCommitted)) {
                long end = replicated.isPresent() ? replicated.get().highWatermark() : log.logEndOffset();
                long offset = readCommitted ? log.producerState().lastStableOffset(end) : end;
                int epoch = replicated.isPresent() ? replicated.get().leaderEpoch() : log.leaderEpochCache().latestEpoch();
                return new ListOffsetsPartitionResponse(index, Errors.NONE.code(), -1L, offset, epoch);
            }
            Optional<TimestampAndOffset> found = maxTimestamp
                ? log.offsetOfMaxTimestamp()
                : log.offsetForTimestamp(logTimestamp(partition.timestamp()));
            // With each offset the epoch of its records, as Kafka's consumer keeps it to validate the position it sets
            return found.map(f -> new ListOffsetsPartitionResponse(index, Errors.NONE.code(), f.timestamp(), f.offset(),
                    log.leaderEpochCache().epochForOffset(f.offset())))
                .orElseGet(() -> new ListOffsetsPartitionResponse(index, Errors.NONE.code(), -1L, -1L, -1));
        } catch (RuntimeException e) {
            return new ListOffsetsPartitionResponse(index, ServerErrors.forException(e).code(), -1L, -1L, -1);
        }
    }

    private static long logTimestamp(long requested) {
        if (requested == ListOffsetsRequest.EARLIEST_LOCAL_TIMESTAMP) {
            return ListOffsetsRequest.EARLIEST_TIMESTAMP;
        }
        if (requested < 0 && requested != ListOffsetsRequest.EARLIEST_TIMESTAMP
            && requested != ListOffsetsRequest.LATEST_TIMESTAMP) {
            throw new ApiException(Errors.INVALID_REQUEST, "Timestamp " + requested + " is not served");
        }
        return requested;
    }
}
