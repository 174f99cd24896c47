package io.millrace.broker.replica;

import io.millrace.broker.cluster.BrokerInfo;
import io.millrace.broker.cluster.ClusterSnapshot;
import io.millrace.broker.cluster.MetadataListener;
import io.millrace.broker.cluster.PartitionState;
import io.millrace.broker.cluster.IsrWriter;
import io.millrace.broker.log.Log;
import io.millrace.broker.log.LogManager;
import io.millrace.broker.network.MetricGroup;
import io.millrace.broker.network.MetricsRegistry;
import io.millrace.broker.replica.Partition.IsrChange;
import io.millrace.broker.replica.ReplicaFetcher.FollowedPartition;
import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.utils.Time;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the leadership ZooKeeper holds to this broker's replicas of replicated partitions (more
 * than one replica): becomes leader (the epoch's start offset recorded in the log, followers' state
 * reset) or follower (the partition handed to a fetcher of its leader, which truncates first). As
 * leader it records followers' fetch positions, advances the high watermark, completes acks=all
 * produces, and writes ISR changes to ZooKeeper: expansions as followers catch up, shrinks from a
 * check every half {@code replica.lag.time.max.ms}.
 *
 * <p>Partitions with one replica are not managed here and keep the unreplicated path: their high
 * watermark is their log end, and acks=all is answered at once. Thread-safety: leadership changes
 * come in order on the metadata cache's thread; the request-path methods are thread-safe.
 */
public final class ReplicaManager implements MetadataListener, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ReplicaManager.class);

    private final int brokerId;
    private final LogManager logs;
    private final ReplicaConfig config;
    private final Time time;
    private final IsrWriter isrWriter;
    private final Consumer<TopicPartition> highWatermarkListener;
    private final Map<TopicPartition, Partition> partitions = new ConcurrentHashMap<>();
    /** The log each replica was made for; only the metadata thread touches it. */
    private final Map<TopicPartition, Log> replicaLogs = new HashMap<>();
    private final ScheduledExecutorService scheduler;
    private final AcksAllWaiters acksAll;
    private final FetcherPool fetchers;
    private final LeaderSide leaderSide = new LeaderSide(this);
    private boolean closed;

    /**
     * @param highWatermarkListener told when a partition's HW moves, to answer consumers' waiting fetches
     */
    public ReplicaManager(int brokerId, LogManager logs, ReplicaConfig config, Time time, IsrWriter isrWriter,
                          Consumer<TopicPartition> highWatermarkListener) {
        this.brokerId = brokerId;
        this.logs = logs;
        this.config = config;
        this.time = time;
        this.isrWriter = isrWriter;
        this.highWatermarkListener = highWatermarkListener;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "replica-manager-" + brokerId);
            t.setDaemon(true);
            return t;
        });
        this.acksAll = new AcksAllWaiters(scheduler);
        this.fetchers = new FetcherPool(brokerId, config, time, this::highWatermarkMoved);
        long checkMs = Math.max(1, config.lagTimeMaxMs() / 2);
        scheduler.scheduleWithFixedDelay(this::shrinkIsrs, checkMs, checkMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void onMetadataChange(ClusterSnapshot previous, ClusterSnapshot current) {
        if (closed) {
            return; // a change delivered after close (the listener is added asynchronously) starts nothing
        }
        Set<TopicPartition> mine = current.partitionsAssignedTo(brokerId);
        for (TopicPartition tp : Set.copyOf(partitions.keySet())) {
            if (!mine.contains(tp)) {
                drop(tp);
            }
        }
        for (TopicPartition tp : mine) {
            current.partitionState(tp.topic(), tp.partition()).ifPresent(state -> apply(tp, state, current));
        }
    }

    private void apply(TopicPartition tp, PartitionState state, ClusterSnapshot snapshot) {
        if (state.replicas().size() < 2) {
            drop(tp); // unreplicated: the handlers' plain path
            return;
        }
        Optional<Log> log = logs.getLog(tp.topic(), tp.partition());
        if (log.isEmpty()) {
            return; // not opened yet (or failed): the next change applies it
        }
        if (replicaLogs.containsKey(tp) && replicaLogs.get(tp) != log.get()) {
            drop(tp); // the topic was deleted and created again: a new log, a new replica
        }
        Partition partition = partitions.computeIfAbsent(tp, k -> {
            ReplicaLog.highWatermarkFollowsLogEnd(log.get(), false);
            replicaLogs.put(k, log.get());
            return new Partition(k, brokerId, time, config.lagTimeMaxMs());
        });
        try {
            if (state.leader() == brokerId) {
                becomeLeader(partition, state, log.get());
            } else {
                becomeFollower(partition, state, log.get(), snapshot);
            }
        } catch (RuntimeException e) {
            LOG.error("Could not apply {} to the replica of {}", state, tp, e);
        }
        acksAll.check(tp);
    }

    private void becomeLeader(Partition partition, PartitionState state, Log log) {
        TopicPartition tp = partition.topicPartition();
        fetchers.stop(tp);
        long logEnd = log.logEndOffset();
        if (partition.makeLeader(state, logEnd, ReplicaLog.highWatermark(log))) {
            ReplicaLog.startEpoch(log, state.leaderEpoch(), logEnd);
            ReplicaLog.updateHighWatermark(log, partition.highWatermark());
            LOG.info("Broker {} leads {} in epoch {} from offset {}, ISR {}", brokerId, tp, state.leaderEpoch(), logEnd,
                state.isr());
            highWatermarkMoved(tp);
        }
    }

    private void becomeFollower(Partition partition, PartitionState state, Log log, ClusterSnapshot snapshot) {
        TopicPartition tp = partition.topicPartition();
        Optional<BrokerInfo> leader = snapshot.broker(state.leader());
        boolean changed = partition.makeFollower(state);
        if (leader.isEmpty()) {
            fetchers.stop(tp); // offline, or its leader not registered yet: nothing to fetch from
            return;
        }
        if (changed || !fetchers.isFetching(tp, leader.get())) {
            LOG.info("Broker {} follows {} from broker {} in epoch {}", brokerId, tp, state.leader(), state.leaderEpoch());
            fetchers.follow(tp, leader.get(), new FollowedPartition(partition, log, state.leaderEpoch()));
        }
    }

    private void drop(TopicPartition tp) {
        Partition dropped = partitions.remove(tp);
        replicaLogs.remove(tp);
        if (dropped != null) {
            dropped.resign();
            fetchers.stop(tp);
            acksAll.check(tp);
            logs.getLog(tp.topic(), tp.partition()).ifPresent(log -> ReplicaLog.highWatermarkFollowsLogEnd(log, true));
        }
    }

    /** The Produce and Fetch handlers' operations on replicated partitions this broker leads. */
    public LeaderSide leaderSide() {
        return leaderSide;
    }

    /**
     * The local replica of {@code tp} if it is replicated, empty if it has one replica (the handlers'
     * plain path).
     *
     * @throws ApiException NOT_LEADER_OR_FOLLOWER: it is replicated but its leadership is not applied
     *     here yet (retriable)
     */
    public Optional<Partition> partition(ClusterSnapshot snapshot, TopicPartition tp) {
        Partition partition = partitions.get(tp);
        if (partition != null) {
            return Optional.of(partition);
        }
        if (snapshot.partitionState(tp.topic(), tp.partition()).map(s -> s.replicas().size() > 1).orElse(false)) {
            throw new ApiException(Errors.NOT_LEADER_OR_FOLLOWER, "The replica of " + tp + " on broker " + brokerId
                + " has not taken its leadership yet");
        }
        return Optional.empty();
    }

    /** The local replica of a replicated partition, or empty for one this broker does not replicate (or has one replica). */
    public Optional<Partition> partition(TopicPartition tp) {
        return Optional.ofNullable(partitions.get(tp));
    }

    /**
     * A follower fetched {@code tp} at {@code fetchOffset}: its position is recorded, which may move
     * the HW (answering acks=all produces and waiting consumers) or add it to the ISR.
     */
    void recordFollowerFetch(Partition partition, Log log, int replicaId, long fetchOffset) {
        long before = partition.highWatermark();
        Optional<IsrChange> change = partition.recordFollowerFetch(replicaId, fetchOffset, log.logEndOffset());
        afterHighWatermarkCheck(partition, log, before);
        change.ifPresent(c -> scheduler.execute(() -> writeIsr(partition, log, c)));
    }

    /** After an append as leader: with the leader alone in the ISR the HW follows the log end. */
    void onLeaderAppend(Partition partition, Log log) {
        long before = partition.highWatermark();
        partition.onLeaderAppend(log.logEndOffset());
        afterHighWatermarkCheck(partition, log, before);
    }

    /** A future completed once the ISR has the batch ending before {@code requiredOffset}; see {@link AcksAllWaiters}. */
    CompletableFuture<Void> awaitReplication(Partition partition, int leaderEpoch, long requiredOffset,
                                                    int minInsyncReplicas, long timeoutMs) {
        return acksAll.await(partition, leaderEpoch, requiredOffset, minInsyncReplicas, timeoutMs);
    }

    private void afterHighWatermarkCheck(Partition partition, Log log, long before) {
        long after = partition.highWatermark();
        if (after != before) {
            ReplicaLog.updateHighWatermark(log, after);
            acksAll.check(partition.topicPartition());
            highWatermarkMoved(partition.topicPartition());
        }
    }

    private void highWatermarkMoved(TopicPartition tp) {
        try {
            highWatermarkListener.accept(tp);
        } catch (RuntimeException e) {
            LOG.warn("A high watermark listener failed for {}", tp, e);
        }
    }

    private void shrinkIsrs() {
        for (Partition partition : partitions.values()) {
            if (!partition.isLeader()) {
                continue;
            }
            logs.getLog(partition.topicPartition().topic(), partition.topicPartition().partition()).ifPresent(log ->
                partition.maybeShrinkIsr(log.logEndOffset()).ifPresent(change -> writeIsr(partition, log, change)));
        }
    }

    /** Runs on the scheduler thread: one ZooKeeper write at a time. */
    private void writeIsr(Partition partition, Log log, IsrChange change) {
        try {
            PartitionState proposed = change.state();
            PartitionState current = new PartitionState(proposed.replicas(), proposed.leader(), proposed.leaderEpoch(),
                proposed.isr(), change.expectedZkVersion());
            Optional<PartitionState> written = isrWriter.updateIsr(change.topicPartition().topic(),
                change.topicPartition().partition(), current, proposed.isr());
            if (written.isEmpty()) {
                LOG.info("{}: the state znode changed before the ISR {} was written; waiting for the new state",
                    change.topicPartition(), change.state().isr());
                partition.isrWriteFailed(change);
                return;
            }
            long before = partition.highWatermark();
            if (partition.isrWritten(change, written.get().zkVersion(), log.logEndOffset())) {
                LOG.info("{}: ISR now {} (epoch {})", change.topicPartition(), change.state().isr(),
                    change.state().leaderEpoch());
            }
            afterHighWatermarkCheck(partition, log, before);
            acksAll.check(change.topicPartition());
        } catch (Exception e) {
            LOG.warn("{}: could not write the ISR {}: {}", change.topicPartition(), change.state().isr(), e.toString());
            partition.isrWriteFailed(change);
        }
    }

    /**
     * Exports {@code io.millrace:type=replica-manager}: {@code leader-count} (replicated partitions
     * this broker leads), {@code partition-count} (replicated partitions with a replica here) and
     * {@code under-replicated-partitions} (those it leads with fewer in-sync replicas than replicas,
     * Kafka's first alarm for a lost or lagging broker).
     */
    public void bindMetrics(MetricsRegistry registry) {
        MetricGroup group = registry.group("replica-manager");
        group.gauge("leader-count", "replicated partitions this broker leads",
            () -> partitions.values().stream().filter(Partition::isLeader).count());
        group.gauge("partition-count", "replicated partitions with a replica on this broker", () -> (long) partitions.size());
        group.gauge("under-replicated-partitions", "partitions this broker leads with fewer in-sync replicas than replicas",
            () -> partitions.values().stream().filter(p -> p.isLeader() && p.isr().size() < p.replicas().size()).count());
    }

    @Override
    public synchronized void close() {
        closed = true;
        scheduler.shutdownNow();
        acksAll.close();
        fetchers.close();
    }
}
