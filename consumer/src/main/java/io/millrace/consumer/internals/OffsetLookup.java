package io.millrace.consumer.internals;

import io.millrace.common.TopicPartition;
import io.millrace.common.client.Cluster;
import io.millrace.common.client.Metadata;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.client.Node;
import io.millrace.common.errors.TimeoutException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.ListOffsetsRequest;
import io.millrace.common.protocol.message.ListOffsetsRequest.ListOffsetsPartition;
import io.millrace.common.protocol.message.ListOffsetsRequest.ListOffsetsTopic;
import io.millrace.common.protocol.message.ListOffsetsResponse;
import io.millrace.common.protocol.message.ListOffsetsResponse.ListOffsetsPartitionResponse;
import io.millrace.common.protocol.message.ListOffsetsResponse.ListOffsetsTopicResponse;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Offsets by time through the ListOffsets API: the earliest ({@link ListOffsetsRequest#EARLIEST_TIMESTAMP}),
 * the latest ({@link ListOffsetsRequest#LATEST_TIMESTAMP}) or the first at or after a time, for many
 * partitions at once with one request per leader. Follows moved leaders (metadata refresh, retry)
 * until the request timeout passes. A read-committed consumer's latest offset is the last stable
 * offset, below the first transaction still open, as for Kafka's consumer. Thread-safe.
 */
public final class OffsetLookup {

    /** The answer for a time after every record of the partition. */
    public static final long NO_OFFSET = -1L;

    private final NetworkClient client;
    private final Metadata metadata;
    private final long timeoutMs;
    private final long retryBackoffMs;
    private final byte isolationLevel;

    /** @param readCommitted whether the latest offset is the last stable offset (isolation.level=read_committed) */
    public OffsetLookup(NetworkClient client, Metadata metadata, long timeoutMs, long retryBackoffMs, boolean readCommitted) {
        this.client = client;
        this.metadata = metadata;
        this.timeoutMs = timeoutMs;
        this.retryBackoffMs = retryBackoffMs;
        this.isolationLevel = (byte) (readCommitted ? 1 : 0);
    }

    public long earliest(TopicPartition tp) {
        return offsets(List.of(tp), ListOffsetsRequest.EARLIEST_TIMESTAMP).get(tp);
    }

    public long latest(TopicPartition tp) {
        return offsets(List.of(tp), ListOffsetsRequest.LATEST_TIMESTAMP).get(tp);
    }

    /**
     * The offset for {@code timestamp} (a time in ms or one of the special values) in every partition;
     * {@link #NO_OFFSET} where no record is that late.
     */
    public Map<TopicPartition, Long> offsets(Collection<TopicPartition> partitions, long timestamp) {
        Set<String> topics = new HashSet<>();
        partitions.forEach(tp -> topics.add(tp.topic()));
        metadata.addTopics(topics);
        Map<TopicPartition, Long> found = new TreeMap<>();
        Set<TopicPartition> pending = new HashSet<>(partitions);
        long deadline = System.currentTimeMillis() + timeoutMs;
        for (int round = 0; ; round++) {
            Cluster seen = metadata.cluster();
            boolean needsMetadata = lookUpOnce(seen, pending, timestamp, found);
            if (pending.isEmpty()) {
                return found;
            }
            if (System.currentTimeMillis() > deadline) {
                throw new TimeoutException("No offsets for " + pending + " within " + timeoutMs + " ms");
            }
            if (needsMetadata) {
                // A first round usually lacks leaders only because it has not asked yet: ask at once.
                awaitMetadata(seen, round == 0 ? 0 : retryBackoffMs, deadline);
            }
        }
    }

    /** One round: a request to each known leader; returns whether some partition needs fresh metadata. */
    private boolean lookUpOnce(Cluster seen, Set<TopicPartition> pending, long timestamp, Map<TopicPartition, Long> found) {
        Map<Node, List<TopicPartition>> byLeader = new HashMap<>();
        boolean needsMetadata = false;
        for (TopicPartition tp : pending) {
            Node leader = seen.leaderFor(tp);
            if (leader == null) {
                needsMetadata = true;
            } else {
                byLeader.computeIfAbsent(leader, n -> new ArrayList<>()).add(tp);
            }
        }
        Map<Node, CompletableFuture<ListOffsetsResponse>> requests = new HashMap<>();
        byLeader.forEach((leader, tps) -> requests.put(leader, client.send(leader, request(tps, timestamp))));
        for (CompletableFuture<ListOffsetsResponse> request : requests.values()) {
            needsMetadata |= collect(request, pending, found);
        }
        return needsMetadata;
    }

    private static boolean collect(CompletableFuture<ListOffsetsResponse> request, Set<TopicPartition> pending,
                                   Map<TopicPartition, Long> found) {
        ListOffsetsResponse response;
        try {
            response = request.join();
        } catch (RuntimeException e) {
            if (LeaderRetry.isRetriable(e)) {
                return true;
            }
            throw LeaderRetry.propagate(e);
        }
        boolean needsMetadata = false;
        for (ListOffsetsTopicResponse topic : response.topics()) {
            for (ListOffsetsPartitionResponse partition : topic.partitions()) {
                TopicPartition tp = new TopicPartition(topic.name(), partition.partitionIndex());
                Errors error = partition.error();
                if (error == Errors.NONE) {
                    found.put(tp, partition.offset());
                    pending.remove(tp);
                } else if (LeaderRetry.isLeaderError(error)) {
                    needsMetadata = true;
                } else {
                    throw error.exception("ListOffsets for " + tp + " failed: " + error.message());
                }
            }
        }
        return needsMetadata;
    }

    private ListOffsetsRequest request(List<TopicPartition> partitions, long timestamp) {
        Map<String, List<ListOffsetsPartition>> byTopic = new TreeMap<>();
        for (TopicPartition tp : partitions) {
            byTopic.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(new ListOffsetsPartition(tp.partition(), -1, timestamp));
        }
        List<ListOffsetsTopic> topics = new ArrayList<>();
        byTopic.forEach((topic, ps) -> topics.add(new ListOffsetsTopic(topic, ps)));
        return new ListOffsetsRequest(-1, isolationLevel, topics);
    }

    private void awaitMetadata(Cluster seen, long backoffMs, long deadline) {
        try {
            LeaderRetry.awaitNewerMetadata(metadata, seen, backoffMs, deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new io.millrace.common.errors.MillraceException("Interrupted while looking up offsets", e);
        }
    }
}
