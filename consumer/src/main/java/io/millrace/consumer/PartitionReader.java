package io.millrace.consumer;

import io.millrace.common.TopicPartition;
import io.millrace.common.client.Cluster;
import io.millrace.common.client.CommonClientConfigs;
import io.millrace.common.client.Metadata;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.client.ResponseBufferPool;
import io.millrace.common.client.ResponseLease;
import io.millrace.common.client.Node;
import io.millrace.common.errors.OffsetOutOfRangeException;
import io.millrace.common.errors.TimeoutException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.FetchRequest;
import io.millrace.common.protocol.message.FetchResponse;
import io.millrace.common.protocol.message.FetchResponse.PartitionData;
import io.millrace.common.protocol.message.ListOffsetsRequest;
import io.millrace.common.serialization.ByteArrayDeserializer;
import io.millrace.common.serialization.Deserializer;
import io.millrace.consumer.internals.FetchRequests;
import io.millrace.consumer.internals.LeaderRetry;
import io.millrace.consumer.internals.OffsetLookup;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;

/**
 * Reads one partition at a time from an offset, the way the Hadoop loader and the mirror need it:
 * {@link #fetch} is one pull of at most {@code max.partition.fetch.bytes} (whole batches, as views over
 * the response), {@link #read} walks the records of an offset range {@code [start, end)} fetch after
 * fetch, {@link #readViews} walks the same records as {@link RecordView}s over the fetched bytes
 * (nothing copied), and {@link #earliestOffset}, {@link #latestOffset} and {@link #offsetForTime} ask
 * the partition's leader (ListOffsets). No group, no ZooKeeper: the caller keeps its own offsets.
 *
 * <p>A partition's leader is looked up in the metadata and followed when it moves
 * (NOT_LEADER_OR_FOLLOWER, a lost connection: refresh, retry) until {@code request.timeout.ms} passes.
 * An offset the partition does not hold is reported as {@link OffsetOutOfRangeException}, naming the
 * range it does hold; it is never silently reset.
 *
 * <p>Thread-safe: many threads may read different partitions through one reader.
 */
public final class PartitionReader implements AutoCloseable {

    private final ConsumerConfig config;
    private final NetworkClient client;
    private final Metadata metadata;
    private final boolean ownsClient;
    private final OffsetLookup offsets;
    private final int requestTimeoutMs;
    private final long retryBackoffMs;
    /**
     * The buffers {@link #readViews} reads responses into and takes back once past them: the one the
     * caller is in, those fetched ahead of it (see {@link RangeFetches#MAX_AHEAD}), and a guess dropped
     * on its way.
     */
    private final ResponseBufferPool responseBuffers = new ResponseBufferPool(RangeFetches.MAX_AHEAD + 2);
    /** Fetches a range sent from where the response before them was expected to end (see {@link RangeFetches}). */
    private final LongAdder guessesSent = new LongAdder();
    /** Those of them that started where that response did end, and were read. */
    private final LongAdder guessesUsed = new LongAdder();

    /** A reader with its own connections, to the brokers of {@code bootstrap.servers} (or ZooKeeper's registry). */
    public PartitionReader(ConsumerConfig config) {
        this(config, newClient(config), null, true);
    }

    /** A reader over a client and metadata the caller owns and closes (e.g. shared with a producer). */
    public PartitionReader(ConsumerConfig config, NetworkClient client, Metadata metadata) {
        this(config, client, metadata, false);
    }

    private PartitionReader(ConsumerConfig config, NetworkClient client, Metadata metadata, boolean ownsClient) {
        this.config = config;
        this.client = client;
        this.requestTimeoutMs = config.getInt(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG);
        this.retryBackoffMs = config.getLong(CommonClientConfigs.RETRY_BACKOFF_MS_CONFIG);
        this.metadata = metadata != null ? metadata : new Metadata(client, CommonClientConfigs.bootstrap(config),
            retryBackoffMs, config.getLong(CommonClientConfigs.METADATA_MAX_AGE_MS_CONFIG));
        this.ownsClient = ownsClient;
        this.offsets = new OffsetLookup(client, this.metadata, requestTimeoutMs, retryBackoffMs, config.readCommitted());
    }

    private static NetworkClient newClient(ConsumerConfig config) {
        return new NetworkClient(CommonClientConfigs.networkOptions(config, "millrace-reader"));
    }

    /** The number of partitions of {@code topic}; waits for the topic to appear, up to request.timeout.ms. */
    public int partitionCount(String topic) {
        try {
            return metadata.awaitTopic(topic, requestTimeoutMs).partitionCount(topic);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TimeoutException("Interrupted while waiting for the metadata of " + topic);
        }
    }

    /** The first offset the partition still holds (the log start offset). */
    public long earliestOffset(TopicPartition tp) {
        return offsets.earliest(tp);
    }

    /** The offset the next record appended to the partition will get (the log end offset). */
    public long latestOffset(TopicPartition tp) {
        return offsets.latest(tp);
    }

    /** The first offset whose record has a timestamp at or after {@code timestampMs}; empty if none has. */
    public OptionalLong offsetForTime(TopicPartition tp, long timestampMs) {
        long offset = offsetsForTime(List.of(tp), timestampMs).get(tp);
        return offset < 0 ? OptionalLong.empty() : OptionalLong.of(offset);
    }

    /** {@link #offsetForTime} for many partitions in one round of requests; -1 where none is that late. */
    public Map<TopicPartition, Long> offsetsForTime(Collection<TopicPartition> partitions, long timestampMs) {
        if (timestampMs < 0) {
            throw new IllegalArgumentException("A time must not be negative: " + timestampMs);
        }
        return offsets.offsets(partitions, timestampMs);
    }

    /** Offsets of many partitions for a timestamp or {@link ListOffsetsRequest#EARLIEST_TIMESTAMP} / LATEST. */
    public Map<TopicPartition, Long> offsets(Collection<TopicPartition> partitions, long timestamp) {
        return offsets.offsets(partitions, timestamp);
    }

    /**
     * One fetch from {@code offset}: at most {@code max.partition.fetch.bytes} of whole batches (or the
     * first batch, if larger), waiting up to {@code fetch.max.wait.ms} for {@code fetch.min.bytes}.
     *
     * @throws OffsetOutOfRangeException when the partition does not hold {@code offset}
     */
    public FetchedBatches fetch(TopicPartition tp, long offset) {
        metadata.addTopics(List.of(tp.topic()));
        long deadline = System.currentTimeMillis() + requestTimeoutMs;
        for (int attempt = 0; ; attempt++) {
            Cluster seen = metadata.cluster();
            Node leader = seen.leaderFor(tp);
            if (leader != null) {
                FetchedBatches fetched = tryFetch(leader, tp, offset);
                if (fetched != null) {
                    return fetched;
                }
            }
            if (System.currentTimeMillis() > deadline) {
                throw new TimeoutException("No leader of " + tp + " answered a fetch within " + requestTimeoutMs + " ms");
            }
            // A reader's first fetch of a partition usually finds no leader only because it has not asked
            // yet: ask at once. Back off once something that was asked has failed.
            refreshMetadata(seen, attempt == 0 && leader == null ? 0 : retryBackoffMs, deadline);
        }
    }

    /**
     * Starts the fetch from {@code offset} without waiting, so the next response can travel while
     * the caller works through the current one. Completes with null whenever anything goes wrong:
     * the caller then calls {@link #fetch}, which retries and reports errors properly. When
     * {@code pooled}, the response is read into a buffer of this reader's pool, which the caller
     * gives back with {@link FetchedBatches#release()} once past it.
     */
    CompletableFuture<FetchedBatches> prefetch(TopicPartition tp, long offset, boolean pooled) {
        Node leader = metadata.cluster().leaderFor(tp);
        if (leader == null) {
            return CompletableFuture.completedFuture(null);
        }
        FetchRequest request = FetchRequests.single(config, tp, offset);
        ResponseLease lease = pooled ? new ResponseLease(responseBuffers) : null;
        try {
            // A failed request's lease is not released: the I/O thread may still be reading into it.
            return client.<FetchResponse>send(leader, request, requestTimeoutMs + request.maxWaitMs(), lease)
                .handle((response, error) -> error != null ? null : batchesOrNull(response, tp, offset, lease));
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(null);
        }
    }

    private FetchedBatches batchesOrNull(FetchResponse response, TopicPartition tp, long offset, ResponseLease lease) {
        PartitionData data = FetchRequests.partitionData(response, tp);
        if (data == null || data.error() != Errors.NONE) {
            if (lease != null) {
                lease.release();
            }
            return null;
        }
        return new FetchedBatches(tp, offset, data.highWatermark(), data.logStartOffset(), FetchRequests.recordsOf(data),
            config.getBoolean(ConsumerConfig.CHECK_CRCS_CONFIG), lease);
    }

    /** The fetch, or null when the leader has moved or cannot be reached (a retry may work). */
    private FetchedBatches tryFetch(Node leader, TopicPartition tp, long offset) {
        FetchRequest request = FetchRequests.single(config, tp, offset);
        FetchResponse response;
        try {
            response = client.<FetchResponse>send(leader, request, requestTimeoutMs + request.maxWaitMs()).join();
        } catch (RuntimeException e) {
            if (LeaderRetry.isRetriable(e)) {
                return null;
            }
            throw LeaderRetry.propagate(e);
        }
        PartitionData data = FetchRequests.partitionData(response, tp);
        Errors error = data == null ? Errors.UNKNOWN_TOPIC_OR_PARTITION : data.error();
        if (error == Errors.NONE) {
            ByteBuffer records = FetchRequests.recordsOf(data);
            return new FetchedBatches(tp, offset, data.highWatermark(), data.logStartOffset(), records,
                config.getBoolean(ConsumerConfig.CHECK_CRCS_CONFIG));
        }
        if (error == Errors.OFFSET_OUT_OF_RANGE) {
            throw outOfRange(tp, offset);
        }
        if (LeaderRetry.isLeaderError(error)) {
            return null;
        }
        throw error.exception("Fetch of " + tp + " at offset " + offset + " failed: " + error.message());
    }

    private OffsetOutOfRangeException outOfRange(TopicPartition tp, long offset) {
        String range;
        try {
            range = "[" + earliestOffset(tp) + ", " + latestOffset(tp) + ")";
        } catch (RuntimeException e) {
            range = "unknown (" + e.getMessage() + ")";
        }
        return new OffsetOutOfRangeException("Offset " + offset + " is out of range for " + tp
            + ": the partition holds offsets " + range);
    }

    /** The records of {@code [startOffset, endOffset)} as byte arrays; see {@link #read(TopicPartition, long, long, Deserializer, Deserializer)}. */
    public Iterator<ConsumerRecord<byte[], byte[]>> read(TopicPartition tp, long startOffset, long endOffset) {
        return read(tp, startOffset, endOffset, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /**
     * The records of {@code [startOffset, endOffset)}, fetched as the iteration goes. An end beyond
     * the log end waits for records to arrive ({@code Long.MAX_VALUE}: never ends). Offsets missing
     * inside the range (log compaction) are skipped. {@code hasNext()} throws what {@link #fetch} throws.
     */
    public <K, V> Iterator<ConsumerRecord<K, V>> read(TopicPartition tp, long startOffset, long endOffset,
                                                      Deserializer<K> keys, Deserializer<V> values) {
        return new RangeIterator<>(range(tp, startOffset, endOffset, false), keys, values);
    }

    /**
     * The records of {@code [startOffset, endOffset)} as views over the fetched bytes, fetched as the
     * cursor goes with the next response already on its way: the same records as {@link #read}, without
     * a copy or an object per record. Ends and waits as {@link #read} does.
     */
    public RecordViews readViews(TopicPartition tp, long startOffset, long endOffset) {
        return RecordViews.of(range(tp, startOffset, endOffset, true));
    }

    /** The fetches of a range; {@code pooled} when its reader gives each response back once past it. */
    private RangeFetches range(TopicPartition tp, long startOffset, long endOffset, boolean pooled) {
        if (startOffset < 0 || endOffset < startOffset) {
            throw new IllegalArgumentException("Bad offset range [" + startOffset + ", " + endOffset + ")");
        }
        return new RangeFetches(this, tp, startOffset, endOffset, pooled);
    }

    void guessSent() {
        guessesSent.increment();
    }

    void guessUsed() {
        guessesUsed.increment();
    }

    /** Fetches sent from where the response before them was expected to end, since this reader was made (for tests). */
    long guessesSent() {
        return guessesSent.sum();
    }

    /** Those of them that were read, having started where that response did end (for tests). */
    long guessesUsed() {
        return guessesUsed.sum();
    }

    /** Pooled response buffers given back and waiting for reuse (for tests). */
    int idleResponseBuffers() {
        return responseBuffers.idleBuffers();
    }

    private void refreshMetadata(Cluster seen, long backoffMs, long deadline) {
        try {
            LeaderRetry.awaitNewerMetadata(metadata, seen, backoffMs, deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TimeoutException("Interrupted while waiting for metadata");
        }
    }

    @Override
    public void close() {
        if (ownsClient) {
            metadata.close();
            client.close();
        }
    }
}
