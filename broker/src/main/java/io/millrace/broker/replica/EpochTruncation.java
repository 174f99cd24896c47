package io.millrace.broker.replica;

import io.millrace.broker.log.Log;
import io.millrace.broker.replica.ReplicaFetcher.FollowedPartition;
import io.millrace.common.TopicPartition;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.client.Node;
import io.millrace.common.errors.NetworkException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.ListOffsetsRequest;
import io.millrace.common.protocol.message.ListOffsetsRequest.ListOffsetsPartition;
import io.millrace.common.protocol.message.ListOffsetsRequest.ListOffsetsTopic;
import io.millrace.common.protocol.message.ListOffsetsResponse;
import io.millrace.common.protocol.message.ListOffsetsResponse.ListOffsetsPartitionResponse;
import io.millrace.common.protocol.message.ListOffsetsResponse.ListOffsetsTopicResponse;
import io.millrace.common.protocol.message.OffsetForLeaderEpochRequest;
import io.millrace.common.protocol.message.OffsetForLeaderEpochRequest.OffsetForLeaderPartition;
import io.millrace.common.protocol.message.OffsetForLeaderEpochRequest.OffsetForLeaderTopic;
import io.millrace.common.protocol.message.OffsetForLeaderEpochResponse;
import io.millrace.common.protocol.message.OffsetForLeaderEpochResponse.EpochEndOffset;
import io.millrace.common.protocol.message.OffsetForLeaderEpochResponse.OffsetForLeaderTopicResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a follower's log stops agreeing with its new leader's, found with leader epochs as Kafka
 * does (KIP-101/279), never from the high watermark alone: the follower asks the leader for the end
 * offset of its own latest epoch. If the leader knows that epoch, the logs agree up to the smaller of
 * its end offset there and the follower's log end; if the leader's answer is an older epoch, the logs
 * agree up to the smaller of the leader's end of that epoch and the follower's own. The follower
 * truncates there, then fetches. Only a follower with no epochs at all (data written before
 * replication) falls back to its high watermark.
 */
final class EpochTruncation {

    private static final Logger LOG = LoggerFactory.getLogger(EpochTruncation.class);

    private final int brokerId;
    private final Node leader;
    private final NetworkClient client;
    private final ReplicaConfig config;

    EpochTruncation(int brokerId, Node leader, NetworkClient client, ReplicaConfig config) {
        this.brokerId = brokerId;
        this.leader = leader;
        this.client = client;
        this.config = config;
    }

    /**
     * Truncates each partition at its divergence point and marks it ready to fetch; a partition the
     * leader refuses is handed to {@code delay}. Truncations run inside {@code locked}.
     */
    void truncate(Map<TopicPartition, FollowedPartition> partitions, Consumer<Runnable> locked,
                  Consumer<FollowedPartition> delay) throws InterruptedException {
        Map<TopicPartition, Integer> asked = new LinkedHashMap<>();
        Map<String, List<OffsetForLeaderPartition>> byTopic = new LinkedHashMap<>();
        partitions.forEach((tp, f) -> {
            int epoch = ReplicaLog.latestEpoch(f.log);
            if (epoch < 0) {
                locked.accept(() -> truncateWithoutEpochs(tp, f));
                return;
            }
            asked.put(tp, epoch);
            byTopic.computeIfAbsent(tp.topic(), t -> new ArrayList<>())
                .add(new OffsetForLeaderPartition(tp.partition(), f.leaderEpoch, epoch));
        });
        if (asked.isEmpty()) {
            return;
        }
        List<OffsetForLeaderTopic> topics = new ArrayList<>();
        byTopic.forEach((topic, list) -> topics.add(new OffsetForLeaderTopic(topic, list)));
        OffsetForLeaderEpochResponse response = await(client.<OffsetForLeaderEpochResponse>send(leader,
            new OffsetForLeaderEpochRequest(brokerId, topics), config.socketTimeoutMs()), config.socketTimeoutMs());
        locked.accept(() -> apply(partitions, asked, response, delay));
    }

    private void apply(Map<TopicPartition, FollowedPartition> partitions, Map<TopicPartition, Integer> asked,
                       OffsetForLeaderEpochResponse response, Consumer<FollowedPartition> delay) {
        for (OffsetForLeaderTopicResult topic : response.topics()) {
            for (EpochEndOffset end : topic.partitions()) {
                TopicPartition tp = new TopicPartition(topic.topic(), end.partition());
                FollowedPartition followed = partitions.get(tp);
                if (followed == null) {
                    continue;
                }
                if (end.error() != Errors.NONE) {
                    LOG.info("{}: leader {} answered {} to OffsetForLeaderEpoch; retrying", tp, leader, end.error());
                    delay.accept(followed);
                    continue;
                }
                truncateAt(tp, followed, divergence(followed, asked.get(tp), end));
                followed.truncating = false;
            }
        }
    }

    /**
     * A log without epochs is empty (nothing to truncate) or holds only data from before replication,
     * for which there is nothing to compare: Kafka's old rule, the high watermark, is all there is.
     */
    private static void truncateWithoutEpochs(TopicPartition tp, FollowedPartition followed) {
        truncateAt(tp, followed, Math.min(followed.log.logEndOffset(), ReplicaLog.highWatermark(followed.log)));
        followed.truncating = false;
    }

    /** The offset from which the follower's log may differ from the leader's. */
    private static long divergence(FollowedPartition followed, int askedEpoch, EpochEndOffset end) {
        return divergence(followed.log, askedEpoch, end.leaderEpoch(), end.endOffset());
    }

    /**
     * Where {@code log}, whose latest epoch is {@code askedEpoch}, stops agreeing with a leader that
     * answered {@code leaderEpoch} ending at {@code leaderEndOffset} (OffsetForLeaderEpoch).
     */
    static long divergence(Log log, int askedEpoch, int leaderEpoch, long leaderEndOffset) {
        long logEnd = log.logEndOffset();
        if (leaderEpoch == OffsetForLeaderEpochResponse.UNDEFINED_EPOCH) {
            // The leader knows no epoch at or below ours: Kafka's fallback, our high watermark.
            return Math.min(logEnd, ReplicaLog.highWatermark(log));
        }
        if (leaderEpoch == askedEpoch) {
            return Math.min(leaderEndOffset, logEnd);
        }
        // The leader never had our latest epoch: we agree at most up to where its epoch ends in both logs.
        long localEnd = ReplicaLog.endOffsetForEpoch(log, leaderEpoch);
        return Math.min(leaderEndOffset, localEnd < 0 ? logEnd : localEnd);
    }

    private static void truncateAt(TopicPartition tp, FollowedPartition followed, long offset) {
        if (offset < followed.log.logEndOffset()) {
            LOG.info("{}: truncating the log from {} to {}, where it diverges from the leader's", tp,
                followed.log.logEndOffset(), offset);
            ReplicaLog.truncateTo(followed.log, offset);
            followed.partition.onTruncation(offset);
        }
    }

    /**
     * For partitions whose fetch offset the leader had out of range: a log that ends below the
     * leader's log start (the leader deleted what this replica still lacks) starts afresh there;
     * otherwise it ends past the leader's, and is truncated by epochs again.
     */
    void recoverOutOfRange(Map<TopicPartition, FollowedPartition> partitions, Consumer<Runnable> locked,
                           Consumer<FollowedPartition> delay) throws InterruptedException {
        Map<String, List<ListOffsetsPartition>> byTopic = new LinkedHashMap<>();
        partitions.forEach((tp, f) -> byTopic.computeIfAbsent(tp.topic(), t -> new ArrayList<>())
            .add(new ListOffsetsPartition(tp.partition(), f.leaderEpoch, ListOffsetsRequest.EARLIEST_TIMESTAMP)));
        List<ListOffsetsTopic> topics = new ArrayList<>();
        byTopic.forEach((topic, list) -> topics.add(new ListOffsetsTopic(topic, list)));
        ListOffsetsResponse response = await(client.<ListOffsetsResponse>send(leader,
            new ListOffsetsRequest(brokerId, (byte) 0, topics), config.socketTimeoutMs()), config.socketTimeoutMs());
        locked.accept(() -> {
            for (ListOffsetsTopicResponse topic : response.topics()) {
                for (ListOffsetsPartitionResponse answer : topic.partitions()) {
                    FollowedPartition followed = partitions.get(new TopicPartition(topic.name(), answer.partitionIndex()));
                    if (followed != null) {
                        restartIfBehind(topic.name(), followed, answer, delay);
                    }
                }
            }
        });
    }

    private void restartIfBehind(String topic, FollowedPartition followed, ListOffsetsPartitionResponse answer,
                                 Consumer<FollowedPartition> delay) {
        if (Errors.forCode(answer.errorCode()) != Errors.NONE) {
            delay.accept(followed);
            return;
        }
        followed.outOfRange = false;
        if (followed.log.logEndOffset() < answer.offset()) {
            LOG.warn("{}-{}: the leader's log now starts at {}, past this replica's end {}; starting afresh there",
                topic, answer.partitionIndex(), answer.offset(), followed.log.logEndOffset());
            ReplicaLog.truncateFullyAndStartAt(followed.log, answer.offset());
            followed.partition.onTruncation(answer.offset());
            followed.truncating = false;
        } else {
            followed.truncating = true;
        }
    }

    /** Waits for a response; a timeout or a broken connection is a NetworkException, retried by the fetcher. */
    static <T> T await(CompletableFuture<T> future, long timeoutMs) throws InterruptedException {
        try {
            return future.get(timeoutMs + 1_000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof RuntimeException runtime ? runtime : new NetworkException(String.valueOf(cause));
        } catch (TimeoutException e) {
            future.cancel(false);
            throw new NetworkException("No answer within " + timeoutMs + " ms");
        }
    }
}
