package io.millrace.broker.server;

import io.millrace.broker.cluster.ClusterSnapshot;
import io.millrace.broker.cluster.MetadataCache;
import io.millrace.broker.log.Log;
import io.millrace.broker.log.LogAppendInfo;
import io.millrace.broker.replica.LeaderSide;
import io.millrace.broker.replica.ReplicaManager;
import io.millrace.common.TopicPartition;
import io.millrace.common.errors.InvalidRecordException;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.ProduceRequest;
import io.millrace.common.protocol.message.ProduceRequest.PartitionData;
import io.millrace.common.protocol.message.ProduceRequest.TopicData;
import io.millrace.common.protocol.message.ProduceResponse;
import io.millrace.common.protocol.message.ProduceResponse.PartitionResponse;
import io.millrace.common.protocol.message.ProduceResponse.TopicResponse;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends each partition's batches to its log, in the request's buffer (the log rewrites the
 * offsets in place). Each partition succeeds or fails alone: a bad batch, an unknown partition or
 * one led elsewhere fails that partition with nothing appended to it. acks=1 is answered after the
 * append; acks=-1 too for a partition with one replica, and for a replicated one once the high
 * watermark passes the batch (the {@link ReplicaManager} refuses it NOT_ENOUGH_REPLICAS, nothing
 * appended, while the in-sync replicas are fewer than min.insync.replicas); acks=0 gets no
 * answer, and the connection is closed if a partition failed, as Kafka does, so that the client
 * notices. For a topic whose flush policy fsyncs every message ({@code flush.messages=1}), acks=1/-1
 * are answered only once the fsync covering the append is done: the request waits on the log's flush
 * future (shared by every append meanwhile, group commit), not on a handler thread, and a flush that
 * fails answers that partition KAFKA_STORAGE_ERROR.
 *
 * <p>A request that needs none of those waits is answered on the network thread that read it
 * ({@link #completesAtOnce}): acks 0 or 1, or -1 to partitions of one replica; every partition led
 * here, its log's append lock free, no new segment due and no fsync per message; at most
 * {@code produce.network.thread.max.bytes} of records. Anything else, refusals included, goes to a
 * request thread.
 */
final class ProduceHandler implements AtOnceApiHandler {

    private static final Logger LOG = LoggerFactory.getLogger(ProduceHandler.class);

    private final MetadataCache metadata;
    private final LocalPartitions partitions;
    private final FetchPurgatory purgatory;
    private final BrokerTopicMetrics topicMetrics;
    private final ReplicaManager replicas;
    /** The most record bytes appended on a network thread, whose other connections wait meanwhile. */
    private final int atOnceMaxBytes;

    ProduceHandler(MetadataCache metadata, LocalPartitions partitions, FetchPurgatory purgatory,
                   BrokerTopicMetrics topicMetrics, ReplicaManager replicas, int atOnceMaxBytes) {
        this.metadata = metadata;
        this.partitions = partitions;
        this.purgatory = purgatory;
        this.topicMetrics = topicMetrics;
        this.replicas = replicas;
        this.atOnceMaxBytes = atOnceMaxBytes;
    }

    @Override
    public void handle(Request request) {
        ProduceRequest body = request.body();
        ClusterSnapshot snapshot = metadata.snapshot();
        Errors refusal = refusal(body);
        List<TopicResponse> responses = new ArrayList<>(body.topicData().size());
        DurableAcks durable = body.acks() == 0 ? null : new DurableAcks();
        boolean anyFailed = false;
        for (TopicData topic : body.topicData()) {
            List<PartitionResponse> results = new ArrayList<>(topic.partitionData().size());
            for (PartitionData partition : topic.partitionData()) {
                PartitionResponse result = refusal != Errors.NONE
                    ? failed(partition.index(), new ApiException(refusal, null))
                    : append(snapshot, topic.name(), partition, body, durable, results.size());
                anyFailed |= result.errorCode() != Errors.NONE.code();
                results.add(result);
            }
            responses.add(new TopicResponse(topic.name(), results));
        }
        if (durable == null || durable.isEmpty()) {
            answer(request, body.acks(), anyFailed, new ProduceResponse(responses, 0));
        } else {
            durable.whenFlushed(responses, flushed -> request.respond(new ProduceResponse(flushed, 0)));
        }
    }

    @Override
    public boolean completesAtOnce(Request request) {
        ProduceRequest body = request.body();
        if (atOnceMaxBytes == 0 || refusal(body) != Errors.NONE) {
            return false;
        }
        ClusterSnapshot snapshot = metadata.snapshot();
        long bytes = 0;
        for (TopicData topic : body.topicData()) {
            for (PartitionData partition : topic.partitionData()) {
                ByteBuffer records = partition.records();
                if (records == null || (bytes += records.remaining()) > atOnceMaxBytes
                    || !appendsAtOnce(snapshot, topic.name(), partition.index(), records, body.acks())) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether {@link #append} of these records would answer without waiting; any refusal says no. */
    private boolean appendsAtOnce(ClusterSnapshot snapshot, String topic, int index, ByteBuffer records, short acks) {
        try {
            Log log = partitions.leaderLog(snapshot, topic, index);
            if (!records.hasRemaining() || log.config().flushMessages() == 1 || log.appendMayWait(records)) {
                return false;
            }
            return acks != -1 || replicas.partition(snapshot, new TopicPartition(topic, index)).isEmpty();
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static Errors refusal(ProduceRequest body) {
        if (body.acks() != 0 && body.acks() != 1 && body.acks() != -1) {
            return Errors.INVALID_REQUIRED_ACKS;
        }
        return Errors.NONE;
    }

    private static void answer(Request request, short acks, boolean anyFailed, ProduceResponse response) {
        if (acks != 0) {
            request.respond(response);
        } else if (anyFailed) {
            LOG.info("Closing the connection of {}: an acks=0 produce failed ({})", request, errors(response));
            request.close();
        } else {
            request.noResponse();
        }
    }

    private static String errors(ProduceResponse response) {
        StringBuilder out = new StringBuilder();
        for (TopicResponse topic : response.responses()) {
            for (PartitionResponse p : topic.partitionResponses()) {
                if (p.errorCode() != Errors.NONE.code()) {
                    out.append(topic.name()).append('-').append(p.index()).append(": ").append(p.error()).append(' ');
                }
            }
        }
        return out.toString().trim();
    }

    private PartitionResponse append(ClusterSnapshot snapshot, String topic, PartitionData partition, ProduceRequest body,
                                     DurableAcks durable, int indexInTopic) {
        try {
            Log log = partitions.leaderLog(snapshot, topic, partition.index());
            ByteBuffer records = partition.records();
            if (records == null || !records.hasRemaining()) {
                throw new InvalidRecordException("The produce request has no records for " + topic + "-" + partition.index());
            }
            TopicPartition tp = new TopicPartition(topic, partition.index());
            LeaderSide.Append appended = replicas.partition(snapshot, tp)
                .map(replica -> replicas.leaderSide().append(replica, log, records, body.acks(), body.timeoutMs()))
                .orElseGet(() -> new LeaderSide.Append(log.append(records), null));
            LogAppendInfo info = appended.info();
            if (durable != null && appended.replicated() != null) {
                durable.await(topic, indexInTopic, appended.replicated());
            }
            topicMetrics.appended(topic, info.sizeInBytes(), info.recordCount());
            purgatory.onAppend(tp);
            if (durable != null && log.config().flushMessages() == 1) {
                durable.await(topic, indexInTopic, log.awaitFlushed(info.lastOffset()));
            }
            return PartitionResponse.of(partition.index(), Errors.NONE, info.firstOffset(), info.logAppendTime(),
                log.logStartOffset());
        } catch (RuntimeException e) {
            return failed(partition.index(), e);
        }
    }

    private static PartitionResponse failed(int partition, RuntimeException e) {
        Errors error = ServerErrors.forException(e);
        return new PartitionResponse(partition, error.code(), -1L, -1L, -1L, List.of(), ServerErrors.message(e));
    }
}
