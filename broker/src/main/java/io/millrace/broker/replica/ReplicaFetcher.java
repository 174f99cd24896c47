package io.millrace.broker.replica;

import io.millrace.broker.log.Log;
import io.millrace.common.TopicPartition;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.client.Node;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.FetchRequest;
import io.millrace.common.protocol.message.FetchRequest.FetchPartition;
import io.millrace.common.protocol.message.FetchRequest.FetchTopic;
import io.millrace.common.protocol.message.FetchResponse;
import io.millrace.common.protocol.message.FetchResponse.FetchableTopicResponse;
import io.millrace.common.protocol.message.FetchResponse.PartitionData;
import io.millrace.common.utils.Time;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One thread copying partitions from one leader, as Kafka's replica fetcher does: each partition
 * first truncates its log where it diverges from the leader's (leader epochs, {@link EpochTruncation}),
 * then fetches from its log end offset with Fetch, {@code replica_id} = this broker, appends what
 * comes as a follower (the leader's offsets and epochs kept) and takes the leader's high watermark,
 * capped by its own log end. A partition the leader refuses (not leader, fenced epoch) waits
 * {@code replica.fetch.backoff.ms} and tries again until the replica manager moves it.
 *
 * <p>Partitions are added and removed from other threads; a removal waits for the response being
 * applied, so once {@link #remove} returns the fetcher no longer touches that log.
 */
final class ReplicaFetcher implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(ReplicaFetcher.class);

    /** A followed partition: its local replica and log, the leader's epoch, and what to do next. */
    static final class FollowedPartition {
        final Partition partition;
        final Log log;
        final int leaderEpoch;
        boolean truncating = true;
        boolean outOfRange;
        long delayedUntilMs;

        FollowedPartition(Partition partition, Log log, int leaderEpoch) {
            this.partition = partition;
            this.log = log;
            this.leaderEpoch = leaderEpoch;
        }
    }

    /** Told of a follower's high watermark moving, to wake consumers' fetches waiting on it. */
    interface Listener {
        void highWatermarkChanged(TopicPartition tp);
    }

    private final int brokerId;
    private final Node leader;
    private final NetworkClient client;
    private final ReplicaConfig config;
    private final Time time;
    private final Listener listener;
    private final EpochTruncation truncation;
    private final Map<TopicPartition, FollowedPartition> partitions = new ConcurrentHashMap<>();
    private final ReentrantLock applying = new ReentrantLock();
    private final Thread thread;
    private volatile boolean running = true;

    ReplicaFetcher(int brokerId, Node leader, int index, NetworkClient client, ReplicaConfig config, Time time,
                   Listener listener) {
        this.brokerId = brokerId;
        this.leader = leader;
        this.client = client;
        this.config = config;
        this.time = time;
        this.listener = listener;
        this.truncation = new EpochTruncation(brokerId, leader, client, config);
        this.thread = new Thread(this, "replica-fetcher-" + brokerId + "-from-" + leader.id() + "-" + index);
        thread.setDaemon(true);
    }

    Node leader() {
        return leader;
    }

    void start() {
        thread.start();
    }

    void add(TopicPartition tp, FollowedPartition followed) {
        partitions.put(tp, followed);
        synchronized (this) {
            notifyAll();
        }
    }

    /** Stops fetching {@code tp}; once this returns, the fetcher no longer touches its log. */
    void remove(TopicPartition tp) {
        applying.lock();
        try {
            partitions.remove(tp);
        } finally {
            applying.unlock();
        }
    }

    boolean isEmpty() {
        return partitions.isEmpty();
    }

    void shutdown() {
        running = false;
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void run() {
        while (running) {
            try {
                if (!fetchOnce()) {
                    idle();
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (running) {
                    LOG.warn("Fetching from {} failed: {}; retrying in {} ms", leader, e.toString(), config.fetchBackoffMs());
                    backoff();
                }
            }
        }
    }

    /** One round: truncations first, then a fetch. Returns false when there was nothing to do. */
    private boolean fetchOnce() throws InterruptedException {
        Map<TopicPartition, FollowedPartition> ready = ready();
        if (ready.isEmpty()) {
            return false;
        }
        Map<TopicPartition, FollowedPartition> outOfRange = select(ready, f -> f.outOfRange);
        if (!outOfRange.isEmpty()) {
            truncation.recoverOutOfRange(outOfRange, this::applyLocked, this::delay);
            return true;
        }
        Map<TopicPartition, FollowedPartition> toTruncate = select(ready, f -> f.truncating);
        if (!toTruncate.isEmpty()) {
            truncation.truncate(toTruncate, this::applyLocked, this::delay);
            return true;
        }
        FetchResponse response = send(ready);
        applyLocked(() -> apply(ready, response));
        return true;
    }

    private static Map<TopicPartition, FollowedPartition> select(Map<TopicPartition, FollowedPartition> partitions,
                                                                 Predicate<FollowedPartition> condition) {
        Map<TopicPartition, FollowedPartition> selected = new LinkedHashMap<>();
        partitions.forEach((tp, f) -> {
            if (condition.test(f)) {
                selected.put(tp, f);
            }
        });
        return selected;
    }

    private Map<TopicPartition, FollowedPartition> ready() {
        long now = time.milliseconds();
        Map<TopicPartition, FollowedPartition> ready = new LinkedHashMap<>();
        partitions.forEach((tp, f) -> {
            if (f.delayedUntilMs <= now) {
                ready.put(tp, f);
            }
        });
        return ready;
    }

    private FetchResponse send(Map<TopicPartition, FollowedPartition> ready) throws InterruptedException {
        Map<String, List<FetchPartition>> byTopic = new LinkedHashMap<>();
        ready.forEach((tp, f) -> byTopic.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(new FetchPartition(
            tp.partition(), f.leaderEpoch, f.log.logEndOffset(), ReplicaLog.latestEpoch(f.log), f.log.logStartOffset(),
            config.fetchMaxBytes())));
        List<FetchTopic> topics = new ArrayList<>();
        byTopic.forEach((topic, list) -> topics.add(new FetchTopic(topic, list)));
        FetchRequest request = new FetchRequest(brokerId, config.fetchWaitMaxMs(), config.fetchMinBytes(),
            config.fetchResponseMaxBytes(), (byte) 0, 0, -1, topics, List.of(), "");
        return EpochTruncation.await(client.<FetchResponse>send(leader, request, config.socketTimeoutMs()),
            config.socketTimeoutMs());
    }

    private void applyLocked(Runnable work) {
        applying.lock();
        try {
            work.run();
        } finally {
            applying.unlock();
        }
    }

    private void apply(Map<TopicPartition, FollowedPartition> sent, FetchResponse response) {
        for (FetchableTopicResponse topic : response.responses()) {
            for (PartitionData data : topic.partitions()) {
                TopicPartition tp = new TopicPartition(topic.topic(), data.partitionIndex());
                FollowedPartition followed = partitions.get(tp);
                if (followed != null && followed == sent.get(tp)) {
                    applyPartition(tp, followed, data);
                }
            }
        }
    }

    private void applyPartition(TopicPartition tp, FollowedPartition followed, PartitionData data) {
        Errors error = data.error();
        if (error == Errors.NONE) {
            ByteBuffer batches = FetchedRecords.wholeBatches(data.records());
            if (batches.hasRemaining()) {
                ReplicaLog.append(followed.log, batches);
            }
            long before = followed.partition.highWatermark();
            followed.partition.updateFollowerHighWatermark(data.highWatermark(), followed.log.logEndOffset());
            long hw = followed.partition.highWatermark();
            ReplicaLog.updateHighWatermark(followed.log, hw);
            followLogStart(followed, data.logStartOffset(), hw);
            if (hw != before) {
                listener.highWatermarkChanged(tp);
            }
        } else if (error == Errors.OFFSET_OUT_OF_RANGE) {
            LOG.warn("{}: offset {} is out of range on leader {}; asking for its log start", tp,
                followed.log.logEndOffset(), leader);
            followed.outOfRange = true;
        } else {
            LOG.info("{}: leader {} answered {}; retrying in {} ms", tp, leader, error, config.fetchBackoffMs());
            delay(followed);
        }
    }

    /**
     * Moves the follower's log start up to the leader's (DeleteRecords, trimmed segments), as far as
     * the high watermark, as Kafka's followers do, so that they keep no more than the leader.
     */
    private static void followLogStart(FollowedPartition followed, long leaderLogStart, long highWatermark) {
        long target = Math.min(leaderLogStart, highWatermark);
        if (target > followed.log.logStartOffset() && target <= followed.log.logEndOffset()) {
            followed.log.deleteRecordsBefore(target);
        }
    }

    private void delay(FollowedPartition followed) {
        followed.delayedUntilMs = time.milliseconds() + config.fetchBackoffMs();
    }

    private synchronized void idle() throws InterruptedException {
        if (partitions.isEmpty()) {
            wait(1_000);
        } else {
            TimeUnit.MILLISECONDS.sleep(Math.min(100, Math.max(1, config.fetchBackoffMs())));
        }
    }

    private void backoff() {
        try {
            TimeUnit.MILLISECONDS.sleep(config.fetchBackoffMs());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }
}
