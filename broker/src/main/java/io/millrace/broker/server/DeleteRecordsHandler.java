package io.millrace.broker.server;

import io.millrace.broker.cluster.ClusterSnapshot;
import io.millrace.broker.cluster.MetadataCache;
import io.millrace.broker.log.Log;
import io.millrace.broker.log.LogManager;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.DeleteRecordsRequest;
import io.millrace.common.protocol.message.DeleteRecordsRequest.DeleteRecordsPartition;
import io.millrace.common.protocol.message.DeleteRecordsRequest.DeleteRecordsTopic;
import io.millrace.common.protocol.message.DeleteRecordsResponse;
import io.millrace.common.protocol.message.DeleteRecordsResponse.DeleteRecordsPartitionResult;
import io.millrace.common.protocol.message.DeleteRecordsResponse.DeleteRecordsTopicResult;
import java.util.ArrayList;
import java.util.List;

/**
 * Moves each partition's log start offset forward, with Kafka's semantics: records below the
 * requested offset are deleted, -1 stands for the high watermark (the log end offset: a
 * partition has no replicas to wait for), an offset beyond it is OFFSET_OUT_OF_RANGE, and an offset
 * at or below the current start changes nothing. Each partition is answered with its low watermark,
 * the log start offset afterwards. The partition must be led here (NOT_LEADER_OR_FOLLOWER
 * otherwise). The answer waits for the log-start-offset checkpoint's fsync on this thread (a few
 * milliseconds), so that an answered deletion survives a crash; with one copy of each partition
 * there is nothing else to wait for, so the request's timeout is not used.
 */
final class DeleteRecordsHandler implements ApiHandler {

    private final MetadataCache metadata;
    private final LocalPartitions partitions;
    private final LogManager logs;

    DeleteRecordsHandler(MetadataCache metadata, LocalPartitions partitions, LogManager logs) {
        this.metadata = metadata;
        this.partitions = partitions;
        this.logs = logs;
    }

    @Override
    public void handle(Request request) {
        DeleteRecordsRequest body = request.body();
        ClusterSnapshot snapshot = metadata.snapshot();
        List<DeleteRecordsTopicResult> topics = new ArrayList<>(body.topics().size());
        for (DeleteRecordsTopic topic : body.topics()) {
            List<DeleteRecordsPartitionResult> results = new ArrayList<>(topic.partitions().size());
            for (DeleteRecordsPartition partition : topic.partitions()) {
                results.add(delete(snapshot, topic.name(), partition));
            }
            topics.add(new DeleteRecordsTopicResult(topic.name(), results));
        }
        request.respond(new DeleteRecordsResponse(0, topics));
    }

    private DeleteRecordsPartitionResult delete(ClusterSnapshot snapshot, String topic, DeleteRecordsPartition partition) {
        int index = partition.partitionIndex();
        try {
            Log log = partitions.leaderLog(snapshot, topic, index);
            long offset = partition.offset() == DeleteRecordsRequest.HIGH_WATERMARK ? log.logEndOffset() : partition.offset();
            return new DeleteRecordsPartitionResult(index, logs.deleteRecords(log, offset), Errors.NONE.code());
        } catch (RuntimeException e) {
            return new DeleteRecordsPartitionResult(index, -1L, ServerErrors.forException(e).code());
        }
    }
}
