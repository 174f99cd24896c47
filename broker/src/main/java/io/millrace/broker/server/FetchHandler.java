package io.millrace.broker.server;

import io.millrace.broker.cluster.ClusterSnapshot;
import io.millrace.broker.cluster.MetadataCache;
import io.millrace.broker.log.AbortedTransactions;
import io.millrace.broker.log.FileSlice;
import io.millrace.broker.log.HighWatermarkReads;
import io.millrace.broker.log.Log;
import io.millrace.broker.log.ProducerStateManager;
import io.millrace.broker.replica.LeaderSide;
import io.millrace.broker.replica.ReplicaManager;
import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.FetchRequest;
import io.millrace.common.protocol.message.FetchRequest.FetchPartition;
import io.millrace.common.protocol.message.FetchRequest.FetchTopic;
import io.millrace.common.protocol.message.FetchResponse;
import io.millrace.common.protocol.message.FetchResponse.AbortedTransaction;
import io.millrace.common.protocol.message.FetchResponse.FetchableTopicResponse;
import io.millrace.common.protocol.message.FetchResponse.PartitionData;
import io.millrace.common.protocol.types.RecordsPayload;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads each requested partition from its log, as file slices that go out with {@code sendfile}.
 * Answers at once when there are at least {@code min_bytes}, a partition failed, or
 * {@code max_wait_ms} is 0; otherwise the fetch waits in the {@link FetchPurgatory} until an
 * append brings enough or the wait ends, without holding a request thread.
 *
 * <p>Byte limits follow Kafka: {@code max_bytes} for the whole response and
 * {@code partition_max_bytes} per partition, except that the first partition with data returns at
 * least one whole batch, so a batch larger than the limits never blocks a consumer. For a partition
 * with one replica the high watermark is the log end offset; a replicated one is read through the
 * {@link ReplicaManager} (a follower's fetch records its position, a consumer reads only below the
 * high watermark).
 *
 * <p>A read-committed fetch (isolation level 1) reads only below the last stable offset: the high
 * watermark, or the first offset of the oldest transaction still open when that is lower. It names
 * the aborted transactions with records in what it may read, whose records the consumer drops.
 */
final class FetchHandler implements AtOnceApiHandler {

    private static final RecordsPayload NO_RECORDS = RecordsPayload.of(ByteBuffer.allocate(0));
    private static final byte READ_COMMITTED = 1;
    /** More partitions than this are read on a request thread: the network thread serves other connections. */
    static final int AT_ONCE_MAX_PARTITIONS = 8;

    private final MetadataCache metadata;
    private final LocalPartitions partitions;
    private final FetchPurgatory purgatory;
    private final BrokerTopicMetrics topicMetrics;
    private final ReplicaManager replicas;

    FetchHandler(MetadataCache metadata, LocalPartitions partitions, FetchPurgatory purgatory,
                 BrokerTopicMetrics topicMetrics, ReplicaManager replicas) {
        this.metadata = metadata;
        this.partitions = partitions;
        this.purgatory = purgatory;
        this.topicMetrics = topicMetrics;
        this.replicas = replicas;
    }

    @Override
    public void handle(Request request) {
        FetchRequest body = request.body();
        FetchResult result = read(body);
        // A fetch naming no partition has nothing an append could complete: it is answered now.
        if (body.maxWaitMs() <= 0 || result.isEnough(body.minBytes()) || result.partitions() == 0) {
            respond(request, result);
            return;
        }
        purgatory.watch(new DelayedFetch(request, this), body.maxWaitMs());
    }

    /**
     * A consumer's fetch of a few partitions with one replica each, all led here, that asks for one
     * byte or no wait and will find records in one of them: it is answered at once, on the network
     * thread that read it, sparing the hand-off to a request thread and back on every fetch of a
     * reader that keeps up. Reading it there costs what the answer's {@code sendfile} costs the same
     * thread anyway: the offset index and the batch headers it reads are the pages it then sends.
     * A follower's fetch (it moves the partition's replication state) and a replicated partition
     * (its high watermark is behind a lock) go to a request thread, as does a fetch that would wait.
     */
    @Override
    public boolean completesAtOnce(Request request) {
        FetchRequest body = request.body();
        if (body.replicaId() >= 0 || (body.minBytes() > 1 && body.maxWaitMs() > 0)) {
            return false;
        }
        ClusterSnapshot snapshot = metadata.snapshot();
        int count = 0;
        boolean records = body.maxWaitMs() <= 0;
        for (FetchTopic topic : body.topics()) {
            for (FetchPartition partition : topic.partitions()) {
                if (++count > AT_ONCE_MAX_PARTITIONS) {
                    return false;
                }
                Log log = unreplicatedLeaderLog(snapshot, topic.topic(), partition.partition());
                if (log == null) {
                    return false;
                }
                long offset = partition.fetchOffset();
                records |= offset >= log.logStartOffset() && offset < log.logEndOffset();
            }
        }
        return count > 0 && records;
    }

    /** The partition's log if it has one replica and is led here; null otherwise (or on any refusal). */
    private Log unreplicatedLeaderLog(ClusterSnapshot snapshot, String topic, int partition) {
        try {
            Log log = partitions.leaderLog(snapshot, topic, partition);
            return replicas.partition(snapshot, new TopicPartition(topic, partition)).isEmpty() ? log : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Sends {@code result}, counting its record bytes per topic. */
    void respond(Request request, FetchResult result) {
        if (result.bytes() > 0) {
            for (FetchableTopicResponse topic : result.response().responses()) {
                long bytes = 0;
                for (PartitionData partition : topic.partitions()) {
                    bytes += partition.records() == null ? 0 : partition.records().sizeInBytes();
                }
                topicMetrics.sent(topic.topic(), bytes);
            }
        }
        request.respondFetch(result.response());
    }

    /** Reads every partition of the fetch as it stands now. */
    FetchResult read(FetchRequest body) {
        ClusterSnapshot snapshot = metadata.snapshot();
        ReadBudget budget = new ReadBudget(body.maxBytes());
        List<FetchableTopicResponse> topics = new ArrayList<>(body.topics().size());
        int partitionCount = 0;
        for (FetchTopic topic : body.topics()) {
            partitionCount += topic.partitions().size();
            List<PartitionData> results = new ArrayList<>(topic.partitions().size());
            for (FetchPartition partition : topic.partitions()) {
                results.add(readPartition(snapshot, topic.topic(), partition, budget, body.replicaId(),
                    body.isolationLevel() == READ_COMMITTED));
            }
            topics.add(new FetchableTopicResponse(topic.topic(), results));
        }
        return new FetchResult(new FetchResponse(0, Errors.NONE.code(), 0, topics), partitionCount, budget.bytesRead,
            budget.failed);
    }

    private PartitionData readPartition(ClusterSnapshot snapshot, String topic, FetchPartition partition, ReadBudget budget,
                                        int replicaId, boolean readCommitted) {
        try {
            Log log = partitions.leaderLog(snapshot, topic, partition.partition());
            int limit = Math.max(0, Math.min(partition.partitionMaxBytes(), budget.remaining));
            LeaderSide.Read read = replicas.partition(snapshot, new TopicPartition(topic, partition.partition()))
                .map(replica -> replicas.leaderSide().read(replica, log, replicaId, partition.currentLeaderEpoch(),
                    partition.fetchOffset(), limit, budget.minOneBatch))
                .orElseGet(() -> readUnreplicated(log, partition.fetchOffset(), limit, budget.minOneBatch));
            long highWatermark = read.highWatermark();
            if (readCommitted && replicaId < 0) {
                return readCommitted(log, partition, read, budget);
            }
            FileSlice slice = read.slice();
            budget.consumed(slice.sizeInBytes());
            RecordsPayload records = slice.isEmpty() ? NO_RECORDS : new FileSlicePayload(slice);
            return PartitionData.of(partition.partition(), Errors.NONE, highWatermark, highWatermark, log.logStartOffset(),
                records);
        } catch (RuntimeException e) {
            budget.failed = true;
            return PartitionData.of(partition.partition(), ServerErrors.forException(e), -1L, -1L, -1L, NO_RECORDS);
        }
    }

    /** {@code read} cut at the last stable offset, with the aborted transactions it holds records of. */
    private static PartitionData readCommitted(Log log, FetchPartition partition, LeaderSide.Read read, ReadBudget budget) {
        ProducerStateManager producers = log.producerState();
        long stable = producers.lastStableOffset(read.highWatermark());
        FileSlice slice = read.slice();
        if (!slice.isEmpty() && log.logEndOffset() > stable) {
            slice = HighWatermarkReads.below(slice, stable);
        }
        budget.consumed(slice.sizeInBytes());
        List<AbortedTransactions.Aborted> found = slice.isEmpty() ? List.of()
            : producers.abortedTransactions(partition.fetchOffset(), stable);
        List<AbortedTransaction> aborted = found.isEmpty() ? List.of()
            : found.stream().map(a -> new AbortedTransaction(a.producerId(), a.firstOffset())).toList();
        return new PartitionData(partition.partition(), Errors.NONE.code(), read.highWatermark(), stable,
            log.logStartOffset(), aborted, -1, slice.isEmpty() ? NO_RECORDS : new FileSlicePayload(slice));
    }

    /** A partition with one replica: its high watermark is its log end. */
    private static LeaderSide.Read readUnreplicated(Log log, long fetchOffset, int limit, boolean minOneBatch) {
        FileSlice slice = log.read(fetchOffset, limit, minOneBatch);
        return new LeaderSide.Read(slice, log.logEndOffset()); // read after the slice, so never below its end
    }

    /** What one pass over the partitions found. */
    record FetchResult(FetchResponse response, int partitions, long bytes, boolean anyFailed) {

        boolean isEnough(int minBytes) {
            return anyFailed || bytes >= minBytes;
        }
    }

    /** The response's byte budget while reading its partitions in order. */
    private static final class ReadBudget {
        private int remaining;
        private boolean minOneBatch = true;
        private long bytesRead;
        private boolean failed;

        ReadBudget(int maxBytes) {
            this.remaining = maxBytes;
        }

        void consumed(int bytes) {
            if (bytes > 0) {
                remaining = Math.max(0, remaining - bytes);
                bytesRead += bytes;
                minOneBatch = false;
            }
        }
    }
}
