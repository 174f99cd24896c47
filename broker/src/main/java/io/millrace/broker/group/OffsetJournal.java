package io.millrace.broker.group;

import io.millrace.broker.cluster.BrokerInfo;
import io.millrace.broker.cluster.ClusterSnapshot;
import io.millrace.broker.cluster.PartitionState;
import io.millrace.broker.cluster.TopicMetadata;
import io.millrace.broker.log.Log;
import io.millrace.broker.replica.LeaderSide;
import io.millrace.broker.replica.Partition;
import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.utils.Time;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits of Kafka-protocol groups, appended to the offsets topic ({@link OffsetsTopic}) and
 * answered once replicated there, as Kafka answers them, then written to the offset registry in
 * ZooKeeper in the background every {@code offsets.registry.write.interval.ms}, the latest commit of
 * each partition only. ZooKeeper stays the store both kinds of group and the tools read; the topic
 * is the write-ahead log that lets a commit be answered before ZooKeeper has it. A broker that
 * takes over a partition of the topic replays its records from the registry's mark
 * ({@link JournalMarks}) before it coordinates the partition's groups, so a commit answered by a
 * leader that died before writing it reaches the registry all the same.
 *
 * <p>Appends run on the request threads; loading, registry writes and log trimming on the
 * coordinator's registry thread.
 */
final class OffsetJournal {

    private static final Logger LOG = LoggerFactory.getLogger(OffsetJournal.class);
    /** Generations appended again before a trim go in batches of at most this many bytes (half a segment if less). */
    static final int REWRITE_BATCH_BYTES = 256 * 1024;
    private static final long WAIT_WARNING_INTERVAL_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(30);

    private final OffsetsTopicAccess access;
    private final GroupConfig config;
    private final OffsetRegistry registry;
    private final JournalMarks marks;
    private final JournalReplay replay = new JournalReplay();
    private final Time time;
    private final Executor registryThread;
    private final Map<Integer, JournalPartition> led = new ConcurrentHashMap<>();
    private final Set<Integer> loading = ConcurrentHashMap.newKeySet();
    private final Set<Integer> revalidating = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean creating = new AtomicBoolean();
    private final AtomicLong lastWaitWarningNanos = new AtomicLong();

    /** Called once a partition is loaded here, with its groups' latest generations, before it serves them. */
    interface LoadListener {
        void loaded(int partition, Map<String, JournalPartition.StoredGroup> groups);
    }

    private final LoadListener onLoaded;

    OffsetJournal(OffsetsTopicAccess access, GroupConfig config, OffsetRegistry registry, JournalMarks marks, Time time,
                  Executor registryThread, LoadListener onLoaded) {
        this.onLoaded = onLoaded;
        this.access = access;
        this.config = config;
        this.registry = registry;
        this.marks = marks;
        this.time = time;
        this.registryThread = registryThread;
    }

    /** The live broker leading the group's partition of the offsets topic; creates the topic when missing. */
    Optional<BrokerInfo> coordinatorOf(String groupId) {
        ClusterSnapshot snapshot = access.metadata().snapshot();
        int partitions = snapshot.partitionCount(OffsetsTopic.NAME);
        if (partitions <= 0) {
            ensureTopic(snapshot);
            return Optional.empty();
        }
        return snapshot.leaderBroker(OffsetsTopic.NAME, OffsetsTopic.partitionFor(groupId, partitions));
    }

    /** Whether this broker leads the group's partition and has loaded it. */
    boolean isLoaded(String groupId) {
        ClusterSnapshot snapshot = access.metadata().snapshot();
        int partitions = snapshot.partitionCount(OffsetsTopic.NAME);
        if (partitions <= 0) {
            return false;
        }
        JournalPartition jp = led.get(OffsetsTopic.partitionFor(groupId, partitions));
        return jp != null && stillLeading(snapshot, jp.partition);
    }

    /** Whether the group's partition is being loaded here: its groups are being restored. */
    boolean isLoading(String groupId) {
        int partitions = access.metadata().partitionCount(OffsetsTopic.NAME);
        return partitions > 0 && loading.contains(OffsetsTopic.partitionFor(groupId, partitions));
    }

    private void warnWaitingForBrokers(ClusterSnapshot snapshot) {
        long now = System.nanoTime();
        long last = lastWaitWarningNanos.get();
        if ((last == 0 || now - last > WAIT_WARNING_INTERVAL_NANOS) && lastWaitWarningNanos.compareAndSet(last, now)) {
            LOG.warn("Not creating {} yet: {} of the cluster's brokers {} are live, fewer than {}={}; groups get "
                    + "COORDINATOR_NOT_AVAILABLE, which clients retry, until enough are back", OffsetsTopic.NAME,
                snapshot.liveBrokers().size(), snapshot.knownBrokers(), GroupConfig.OFFSETS_TOPIC_REPLICATION_FACTOR_CONFIG,
                config.offsetsTopicReplicationFactor());
        }
    }

    /** Whether the topic exists and every partition of it this broker leads is loaded here. */
    boolean allLedLoaded() {
        ClusterSnapshot snapshot = access.metadata().snapshot();
        int partitions = snapshot.partitionCount(OffsetsTopic.NAME);
        if (partitions <= 0) {
            ensureTopic(snapshot);
            return false;
        }
        for (int p = 0; p < partitions; p++) {
            if (snapshot.leader(OffsetsTopic.NAME, p) == access.brokerId() && !led.containsKey(p)) {
                return false;
            }
        }
        return true;
    }

    private void ensureTopic(ClusterSnapshot snapshot) {
        int replicationFactor = OffsetsTopic.replicationFactorToCreate(config.offsetsTopicReplicationFactor(),
            snapshot.liveBrokers().size(), snapshot.knownBrokers().size());
        if (replicationFactor == 0) {
            warnWaitingForBrokers(snapshot);
            return;
        }
        if (!creating.compareAndSet(false, true)) {
            return;
        }
        if (replicationFactor < config.offsetsTopicReplicationFactor()) {
            LOG.warn("Creating {} with replication factor {}: only {} brokers are live, fewer than {}={}", OffsetsTopic.NAME,
                replicationFactor, replicationFactor, GroupConfig.OFFSETS_TOPIC_REPLICATION_FACTOR_CONFIG,
                config.offsetsTopicReplicationFactor());
        }
        Map<String, String> topicConfig = Map.of("segment.bytes", Integer.toString(config.offsetsTopicSegmentBytes()),
            "retention.ms", "-1", "retention.bytes", "-1");
        access.creator().create(OffsetsTopic.NAME, config.offsetsTopicNumPartitions(), replicationFactor, topicConfig)
            .whenComplete((ok, failure) -> {
                Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
                if (failure != null && !(cause instanceof io.millrace.common.errors.TopicExistsException)) {
                    LOG.warn("Could not create {}: {}", OffsetsTopic.NAME, failure.toString());
                    creating.set(false); // the next FindCoordinator tries again
                } else if (failure == null) {
                    LOG.info("Created {} with {} partitions, replication factor {}", OffsetsTopic.NAME,
                        config.offsetsTopicNumPartitions(), replicationFactor);
                }
            });
    }

    /**
     * Appends a commit (a null value deletes) to the group's partition; completes when replicated to
     * the in-sync replicas, or fails NOT_COORDINATOR when this broker does not lead it.
     */
    CompletableFuture<Void> append(String groupId, Map<TopicPartition, OffsetRegistry.Committed> offsets) {
        return append(groupId, OffsetsTopic.batch(groupId, offsets, time.milliseconds()),
            (jp, first, last) -> jp.appended(groupId, offsets, first, last), false);
    }

    /**
     * Appends a transactional producer's commits in its open transaction (TxnOffsetCommit); they
     * count once its commit marker reaches the partition ({@link #onMarker}). Completes when
     * replicated; fails INVALID_PRODUCER_EPOCH for a producer fenced by a newer epoch.
     */
    CompletableFuture<Void> appendTransactional(String groupId, long producerId, short producerEpoch,
                                                Map<TopicPartition, OffsetRegistry.Committed> offsets) {
        ByteBuffer batch = OffsetsTopic.transactionalBatch(groupId, offsets, time.milliseconds(), producerId, producerEpoch);
        return append(groupId, batch, (jp, first, last) -> jp.transactionalAppended(producerId, groupId, offsets, first,
            last), true);
    }

    /** A transaction marker of {@code producerId} was appended to {@code partition} here: its pending commits settle. */
    void onMarker(int partition, long producerId, boolean commit) {
        JournalPartition jp = led.get(partition);
        if (jp != null) {
            synchronized (jp) {
                jp.transactionEnded(producerId, commit);
            }
        }
    }

    /** Whether an open transaction holds a commit of the group's partition. */
    boolean hasPendingCommit(String groupId, TopicPartition partition) {
        return partitionOf(groupId).map(jp -> jp.hasPendingCommit(groupId, partition)).orElse(false);
    }

    /**
     * Appends the group's generation ({@code value} null: it has none now, written only if the log
     * holds one) to the group's partition; completes when replicated to the in-sync replicas.
     */
    CompletableFuture<Void> storeGroup(String groupId, byte[] value) {
        if (value == null && partitionOf(groupId).map(jp -> !jp.hasGroup(groupId)).orElse(true)) {
            return CompletableFuture.completedFuture(null);
        }
        ByteBuffer batch = OffsetsTopic.groupBatch(groupId, value, time.milliseconds());
        return append(groupId, batch, (jp, first, last) -> jp.groupAppended(groupId, value, last), false);
    }

    /** What an append records in the partition's state, under its lock, with the offsets it got. */
    private interface Appended {
        void record(JournalPartition jp, long firstOffset, long lastOffset);
    }

    private CompletableFuture<Void> append(String groupId, ByteBuffer batch, Appended onAppended, boolean transactional) {
        ClusterSnapshot snapshot = access.metadata().snapshot();
        int partitions = snapshot.partitionCount(OffsetsTopic.NAME);
        JournalPartition jp = partitions <= 0 ? null : led.get(OffsetsTopic.partitionFor(groupId, partitions));
        if (jp == null || !stillLeading(snapshot, jp.partition)) {
            return CompletableFuture.failedFuture(new ApiException(Errors.NOT_COORDINATOR,
                "Broker " + access.brokerId() + " does not coordinate group " + groupId));
        }
        TopicPartition tp = new TopicPartition(OffsetsTopic.NAME, jp.partition);
        LeaderSide.Append appended;
        try {
            Log log = access.logs().getLog(OffsetsTopic.NAME, jp.partition).orElseThrow(() ->
                new ApiException(Errors.NOT_COORDINATOR, "The log of " + tp + " is closed"));
            Optional<Partition> replica = access.replicas().partition(snapshot, tp);
            synchronized (jp) {
                appended = appendTo(log, replica, batch, transactional);
                onAppended.record(jp, appended.info().firstOffset(), appended.info().lastOffset());
            }
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        access.onAppend().accept(tp);
        return appended.replicated() == null ? CompletableFuture.completedFuture(null) : appended.replicated();
    }

    /**
     * Appends as the partition's leader: through replication, waiting for the ISR, when it has
     * replicas. A transactional producer's batch is checked by its epoch only (it has no sequence).
     */
    private LeaderSide.Append appendTo(Log log, Optional<Partition> replica, ByteBuffer batch, boolean transactional) {
        int timeoutMs = config.offsetsCommitTimeoutMs();
        if (transactional) {
            return replica.map(r -> access.replicas().leaderSide().appendFromCoordinator(r, log, batch, timeoutMs))
                .orElseGet(() -> new LeaderSide.Append(log.appendFromCoordinator(batch, -1), null));
        }
        return replica.map(r -> access.replicas().leaderSide().append(r, log, batch, (short) -1, timeoutMs))
            .orElseGet(() -> new LeaderSide.Append(log.append(batch), null));
    }

    /**
     * Lays the group's commits not yet in the registry over what the registry gave; false, with
     * nothing laid, when this broker does not hold the group's partition loaded just now (its
     * unwritten commits are elsewhere or being replayed, so the registry alone would be stale).
     */
    boolean overlay(String groupId, Map<TopicPartition, OffsetRegistry.Committed> fromRegistry, List<TopicPartition> asked) {
        Optional<JournalPartition> jp = partitionOf(groupId);
        jp.ifPresent(p -> p.overlay(groupId, fromRegistry, asked));
        return jp.isPresent();
    }

    /** The partitions with commits of the group not yet in the registry. */
    List<TopicPartition> unwrittenPartitions(String groupId) {
        return partitionOf(groupId).map(jp -> jp.unwrittenPartitions(groupId)).orElse(List.of());
    }

    private Optional<JournalPartition> partitionOf(String groupId) {
        int partitions = access.metadata().partitionCount(OffsetsTopic.NAME);
        return partitions <= 0 ? Optional.empty() : Optional.ofNullable(led.get(OffsetsTopic.partitionFor(groupId, partitions)));
    }

    /**
     * Timer thread: forgets partitions no longer led here (their new leader replays them) and has
     * the registry thread load those newly led.
     */
    void refresh() {
        ClusterSnapshot snapshot = access.metadata().snapshot();
        led.values().removeIf(jp -> {
            boolean lost = !stillLeading(snapshot, jp.partition);
            if (lost) {
                LOG.info("No longer leading {}-{} in epoch {}; its groups move", OffsetsTopic.NAME, jp.partition, jp.leaderEpoch);
            }
            return lost;
        });
        for (JournalPartition jp : led.values()) {
            int epoch = snapshot.partitionState(OffsetsTopic.NAME, jp.partition).map(PartitionState::leaderEpoch)
                .orElse(jp.leaderEpoch);
            if (epoch != jp.leaderEpoch && revalidating.add(jp.partition)) {
                registryThread.execute(() -> revalidate(jp, epoch));
            }
        }
        int partitions = snapshot.partitionCount(OffsetsTopic.NAME);
        for (int p = 0; p < partitions; p++) {
            int partition = p;
            Optional<PartitionState> state = snapshot.partitionState(OffsetsTopic.NAME, p);
            if (state.isEmpty() || led.containsKey(p) || !stillLeading(snapshot, p)) {
                continue;
            }
            if (loading.add(p)) {
                int epoch = state.get().leaderEpoch();
                registryThread.execute(() -> load(partition, epoch));
            }
        }
    }

    /**
     * Whether this broker leads the partition, with its log open. The leader epoch is not compared:
     * the controller raises it on every ISR change too, while the same broker goes on leading with
     * the same state; {@link #refresh} checks a new epoch against the mark instead.
     */
    private boolean stillLeading(ClusterSnapshot snapshot, int partition) {
        if (snapshot.leader(OffsetsTopic.NAME, partition) != access.brokerId()) {
            return false;
        }
        TopicPartition tp = new TopicPartition(OffsetsTopic.NAME, partition);
        return access.logs().getLog(OffsetsTopic.NAME, partition).isPresent()
            && access.replicas().partition(tp).map(Partition::isLeader).orElse(true);
    }

    /**
     * Registry thread: the partition is still led here but in a new leader epoch. If no other broker
     * has written its mark since this one did, leadership never left and the state carries over;
     * otherwise another broker led it meanwhile and the partition is loaded again.
     */
    private void revalidate(JournalPartition jp, int leaderEpoch) {
        try {
            JournalMarks.Mark mark = marks.read(jp.partition, topicId(access.metadata().snapshot()));
            if (mark.version() == jp.markVersion) {
                jp.leaderEpoch = leaderEpoch;
            } else {
                LOG.info("{}-{} was led elsewhere before epoch {}; loading it again", OffsetsTopic.NAME, jp.partition,
                    leaderEpoch);
                led.remove(jp.partition, jp);
            }
        } catch (Exception e) {
            LOG.warn("Could not check the mark of {}-{}; retrying", OffsetsTopic.NAME, jp.partition, e);
        } finally {
            revalidating.remove(jp.partition);
        }
    }

    private void load(int partition, int leaderEpoch) {
        try {
            ClusterSnapshot snapshot = access.metadata().snapshot();
            if (!stillLeading(snapshot, partition)) {
                return;
            }
            UUID topicId = topicId(snapshot);
            Log log = access.logs().getLog(OffsetsTopic.NAME, partition).orElseThrow();
            JournalMarks.Mark mark = marks.read(partition, topicId);
            if (mark.offset() < log.logStartOffset()) {
                LOG.warn("{}-{} starts at {}, past the offset registry's mark {}: commits in between cannot be replayed",
                    OffsetsTopic.NAME, partition, log.logStartOffset(), mark.offset());
            }
            long from = Math.min(Math.max(mark.offset(), log.logStartOffset()), log.logEndOffset());
            JournalPartition jp = new JournalPartition(partition, leaderEpoch, from, mark.version());
            long replayedTo = log.logEndOffset();
            int replayed = replay.replay(log, from, jp);
            // writing the mark at once fences the previous leader's writes still under way
            registry.commitAll(List.of(), List.of(marks.write(partition, topicId, from, mark.version())));
            jp.markVersion = mark.version() + 1;
            if (stillLeading(access.metadata().snapshot(), partition)) {
                Map<String, JournalPartition.StoredGroup> groups = jp.groups();
                onLoaded.loaded(partition, groups);
                led.put(partition, jp);
                // markers appended while it was read reached no partition here: read them again (twice is harmless)
                replay.replayMarkers(log, replayedTo, jp);
                LOG.info("Loaded {}-{} in epoch {}: {} commits from offset {} to write to the offset registry, {} groups' "
                    + "generations", OffsetsTopic.NAME, partition, leaderEpoch, replayed, from, groups.size());
                write(jp);
            }
        } catch (Exception e) {
            LOG.warn("Could not load {}-{}; retrying", OffsetsTopic.NAME, partition, e);
        } finally {
            loading.remove(partition);
        }
    }

    private static UUID topicId(ClusterSnapshot snapshot) {
        return snapshot.topic(OffsetsTopic.NAME).map(TopicMetadata::topicId).orElseThrow();
    }

    /** Registry thread: writes every led partition's replicated commits to the registry. */
    void writeAll() {
        for (JournalPartition jp : led.values()) {
            write(jp);
        }
    }

    /** Registry thread: writes the group's partition's replicated commits now (before its offsets are deleted). */
    void writeNow(String groupId) {
        partitionOf(groupId).ifPresent(this::write);
    }

    private void write(JournalPartition jp) {
        ClusterSnapshot snapshot = access.metadata().snapshot();
        if (!stillLeading(snapshot, jp.partition)) {
            return;
        }
        TopicPartition tp = new TopicPartition(OffsetsTopic.NAME, jp.partition);
        Optional<Log> log = access.logs().getLog(OffsetsTopic.NAME, jp.partition);
        if (log.isEmpty()) {
            return;
        }
        long highWatermark = access.replicas().partition(tp).map(Partition::highWatermark).orElse(log.get().highWatermark());
        JournalPartition.Flush flush = jp.takeBelow(highWatermark);
        if (flush.entries().isEmpty() && flush.mark() == jp.mark) {
            return;
        }
        try {
            JournalWrites.write(registry, flush.entries(),
                marks.write(jp.partition, topicId(snapshot), flush.mark(), jp.markVersion));
            jp.markVersion++;
            jp.mark = flush.mark();
            jp.written(flush);
            trim(log.get(), jp, flush.mark(), highWatermark);
        } catch (KeeperException e) {
            if (e.code() == KeeperException.Code.BADVERSION) {
                LOG.warn("Another broker has taken over {}; it writes the partition's commits now", tp);
                led.remove(jp.partition, jp);
            } else {
                LOG.warn("Could not write the commits of {} to the offset registry; retrying", tp, e);
            }
        } catch (Exception e) {
            LOG.warn("Could not write the commits of {} to the offset registry; retrying", tp, e);
        }
    }

    /**
     * Drops the segments wholly below the mark, whose commits the registry holds, once no group's
     * latest generation lies in them: those are appended again at the end first, and the segments go
     * at a later write, once the copies are replicated.
     */
    private void trim(Log log, JournalPartition jp, long mark, long highWatermark) {
        List<Long> bases = log.segmentBaseOffsets();
        if (bases.size() < 2 || mark < bases.get(1) || jp.rewrittenEnd() > highWatermark) {
            return;
        }
        long keep = Math.min(mark, jp.oldestGroupOffset());
        if (keep < bases.get(1)) {
            rewriteGroups(log, jp, mark);
            return;
        }
        access.logs().deleteRecords(log, keep);
    }

    /** Appends again the groups' generations lying below {@code offset}, so their old records can go. */
    private void rewriteGroups(Log log, JournalPartition jp, long offset) {
        TopicPartition tp = new TopicPartition(OffsetsTopic.NAME, jp.partition);
        Optional<Partition> replica = access.replicas().partition(access.metadata().snapshot(), tp);
        try {
            synchronized (jp) {
                int limit = Math.min(REWRITE_BATCH_BYTES, config.offsetsTopicSegmentBytes() / 2);
                for (Map<String, byte[]> chunk : chunks(jp.groupsBelow(offset), limit)) {
                    ByteBuffer batch = OffsetsTopic.groupsBatch(chunk, time.milliseconds());
                    io.millrace.broker.log.LogAppendInfo info = appendTo(log, replica, batch, false).info();
                    // the batch's first offset stands for each: trimming below it keeps them all
                    chunk.forEach((group, value) -> jp.groupAppended(group, value, info.firstOffset()));
                    jp.rewritten(info.lastOffset() + 1);
                }
            }
            access.onAppend().accept(tp);
        } catch (RuntimeException e) {
            LOG.warn("Could not rewrite the group generations of {} before trimming it; retrying", tp, e);
        }
    }

    /**
     * Splits generations into batches of at most {@code limit} bytes of values (or one generation), so
     * none is refused as larger than a segment.
     */
    static List<Map<String, byte[]>> chunks(Map<String, byte[]> generations, int limit) {
        List<Map<String, byte[]>> chunks = new ArrayList<>();
        Map<String, byte[]> chunk = new java.util.HashMap<>();
        int bytes = 0;
        for (Map.Entry<String, byte[]> e : generations.entrySet()) {
            if (!chunk.isEmpty() && bytes + e.getValue().length > limit) {
                chunks.add(chunk);
                chunk = new java.util.HashMap<>();
                bytes = 0;
            }
            chunk.put(e.getKey(), e.getValue());
            bytes += e.getValue().length;
        }
        if (!chunk.isEmpty()) {
            chunks.add(chunk);
        }
        return chunks;
    }

    /** The commits held here not yet in the registry, for tests and metrics. */
    int unwrittenCount() {
        return led.values().stream().mapToInt(JournalPartition::unwrittenCount).sum();
    }

    List<Integer> ledPartitions() {
        return new ArrayList<>(led.keySet());
    }
}
