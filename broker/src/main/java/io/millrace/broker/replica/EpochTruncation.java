package io.millrace.broker.replica;

import io.millrace.broker.replica.ReplicaFetcher.FollowedPartition;
import io.millrace.common.TopicPartition;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.client.Node;
import io.millrace.common.errors.NetworkException;
import io.millrace.common.protocol.Errors;
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
        long logEnd = followed.log.logEndOffset();
        if (end.leaderEpoch() == OffsetForLeaderEpochResponse.UNDEFINED_EPOCH) {
            // The leader knows no epoch at or below ours: Kafka's fallback, our high watermark.
            return Math.min(logEnd, ReplicaLog.highWatermark(followed.log));
        }
        if (end.leaderEpoch() == askedEpoch) {
            return Math.min(end.endOffset(), logEnd);
        }
        long localEnd = ReplicaLog.endOffsetForEpoch(followed.log, end.leaderEpoch());
        return Math.min(end.endOffset(), localEnd < 0 ? logEnd : localEnd);
    }

    private static void truncateAt(TopicPartition tp, FollowedPartition followed, long offset) {
        if (offset < followed.log.logEndOffset()) {
            LOG.info("{}: truncating the log from {} to {}, where it diverges from the leader's", tp,
                followed.log.logEndOffset(), offset);
            ReplicaLog.truncateTo(followed.log, offset);
            followed.partition.onTruncation(offset);
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
