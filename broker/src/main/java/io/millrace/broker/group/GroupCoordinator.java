package io.millrace.broker.group;

import io.millrace.broker.cluster.BrokerInfo;
import io.millrace.broker.cluster.MetadataCache;
import io.millrace.common.TopicPartition;
import io.millrace.common.utils.Time;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's group coordinator for Kafka's classic protocol: the groups this broker coordinates
 * (those whose partition of the offsets topic it leads), kept in memory, and their committed
 * offsets, appended to that partition and written from there to the {@link OffsetRegistry}
 * ({@link OffsetJournal}). One timer thread checks the groups' deadlines every {@value #TICK_MS} ms
 * (delayed JoinGroup answers complete there when the rebalance timeout passes, and members past
 * their session timeout are removed) and drops the groups whose coordinator has moved to another
 * broker, answering their waiting members NOT_COORDINATOR so they look for the new one. ZooKeeper
 * reads and writes run on one thread of their own, never on a request thread: the commits' writes
 * from the offsets topic to the registry, the group
 * admin APIs' reads and deletions, the {@code kafka-members} markers that keep a group id of one
 * kind ({@link GroupMarkers}) and, every {@code offsets.retention.check.interval.ms}, offset
 * retention ({@link OffsetRetention}).
 */
public final class GroupCoordinator implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GroupCoordinator.class);

    static final long TICK_MS = 100;
    /** Every 50 ticks (5 s) the markers are checked against ZooKeeper. */
    private static final int MARKER_VERIFY_TICKS = 50;

    private final int brokerId;
    private final MetadataCache metadata;
    private final GroupConfig config;
    private final Time time;
    private final OffsetRegistry offsets;
    private final GroupNodes nodes;
    private final GroupMarkers markers;
    private final Map<String, ClassicGroup> groups = new ConcurrentHashMap<>();
    private final ConsumerGroups consumerGroups;
    private final GroupTakeover takeover;
    private final ScheduledExecutorService timer;
    private final ScheduledExecutorService registryThread;
    private final OffsetJournal journal;
    /** Groups whose kafka-group node this broker has made sure of. */
    private final Set<String> kafkaGroups = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean reconcileQueued = new AtomicBoolean();
    /** Claims of groups under way, shared by the JoinGroups that arrive meanwhile. */
    private final Map<String, CompletableFuture<String>> claims = new ConcurrentHashMap<>();
    private long ticks;
    /** Set first by {@link #close}: from then on no group is coordinated here. */
    private volatile boolean closed;

    /**
     * @param journal where commits go first: the broker's logs and replicas of the offsets topic,
     *     and how to create it
     */
    public GroupCoordinator(OffsetsTopicAccess journal, org.apache.curator.framework.CuratorFramework curator,
                            GroupConfig config, Time time) {
        int brokerId = journal.brokerId();
        this.brokerId = brokerId;
        this.metadata = journal.metadata();
        this.config = config;
        this.time = time;
        this.offsets = new OffsetRegistry(curator);
        this.nodes = new GroupNodes(curator, brokerId);
        this.markers = new GroupMarkers(nodes, time);
        this.consumerGroups = new ConsumerGroups(config, this::storeGeneration, this::nowMs);
        this.takeover = new GroupTakeover(groups, consumerGroups, this::newGroup,
            () -> metadata.partitionCount(OffsetsTopic.NAME), this::nowMs);
        this.timer = daemon("millrace-broker-" + brokerId + "-group-timer");
        this.registryThread = daemon("millrace-broker-" + brokerId + "-group-offsets");
        this.journal = new OffsetJournal(journal, config, offsets, new JournalMarks(curator), time, registryThread,
            (partition, stored) -> takeover.restore(partition, stored));
    }

    private static ScheduledExecutorService daemon(String name) {
        return new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = Executors.defaultThreadFactory().newThread(r);
            t.setName(name);
            t.setDaemon(true);
            return t;
        });
    }

    public void start() {
        timer.scheduleWithFixedDelay(this::tick, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
        OffsetRetention retention = new OffsetRetention(nodes, offsets, time, config.offsetsRetentionMs(),
            this::idleHereAndWritten, this::forgetKafkaGroup);
        long interval = config.offsetsRetentionCheckIntervalMs();
        registryThread.scheduleWithFixedDelay(retention::run, interval, interval, TimeUnit.MILLISECONDS);
        long writes = config.offsetsRegistryWriteIntervalMs();
        registryThread.scheduleWithFixedDelay(journal::writeAll, writes, writes, TimeUnit.MILLISECONDS);
    }

    /**
     * Exports {@code io.millrace:type=group-coordinator}: {@code group-count} (groups with members
     * here), {@code offsets-partitions-led} (partitions of {@code __consumer_offsets} this broker
     * leads and has loaded) and {@code unwritten-commits} (group partitions whose latest commit is in
     * the topic but not yet in the ZooKeeper offset registry; it should stay near zero, and grows
     * while ZooKeeper cannot be written).
     */
    public void bindMetrics(io.millrace.broker.network.MetricsRegistry registry) {
        io.millrace.broker.network.MetricGroup group = registry.group("group-coordinator");
        group.gauge("group-count", "groups with members coordinated by this broker", () -> (long) activeGroups().size());
        group.gauge("offsets-partitions-led", "partitions of __consumer_offsets this broker leads and has loaded",
            () -> (long) journal.ledPartitions().size());
        group.gauge("unwritten-commits", "group partitions whose latest commit is not yet in the offset registry",
            () -> (long) journal.unwrittenCount());
    }

    GroupNodes nodes() {
        return nodes;
    }

    OffsetRegistry offsets() {
        return offsets;
    }

    /** Runs {@code call} on the thread that makes every ZooKeeper call of the coordinator. */
    <T> CompletableFuture<T> onRegistryThread(Callable<T> call) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return call.call();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        }, registryThread);
    }

    /**
     * Marks {@code groupId} as a Kafka-protocol group before its first member joins, then checks it
     * has no ZooKeeper group consumers; the future holds why not, or null when it may be joined.
     * JoinGroups arriving while a claim of the group is under way share it: members started together
     * then all get their member ids as soon as the one claim is done, in time to be waited for by
     * the first rebalance, instead of queueing a ZooKeeper round trip each behind the first member,
     * which would form a generation of its own meanwhile.
     */
    CompletableFuture<String> claimForKafka(String groupId) {
        CompletableFuture<String> claim = claims.computeIfAbsent(groupId, id -> onRegistryThread(() -> markers.claim(id)));
        claim.whenComplete((conflict, failure) -> claims.remove(groupId, claim));
        return claim;
    }

    /**
     * Registry thread: {@link #isIdleHere}, and if so with the group's last commits written to the
     * registry, whose times retention reads.
     */
    private boolean idleHereAndWritten(String groupId) {
        if (!isIdleHere(groupId)) {
            return false;
        }
        journal.writeNow(groupId);
        return true;
    }

    /** Whether this broker coordinates the group and holds none of its members (or members waiting to join). */
    boolean isIdleHere(String groupId) {
        return isCoordinatorOf(groupId) && Optional.ofNullable(groups.get(groupId)).map(ClassicGroup::isIdle).orElse(true)
            && consumerGroups.active(groupId).isEmpty();
    }

    /** The groups coordinated here that have members, or members waiting to join. */
    List<ClassicGroup> activeGroups() {
        return groups.values().stream().filter(g -> !g.isIdle() && isCoordinatorOf(g.groupId())).toList();
    }

    /** Drops the in-memory group if it is idle (DeleteGroups); false when it has members. */
    boolean retireIfIdle(String groupId) {
        if (consumerGroups.active(groupId).isPresent()) {
            return false;
        }
        ClassicGroup group = groups.get(groupId);
        if (group == null) {
            return true;
        }
        if (!group.retireIfIdle()) {
            return false;
        }
        groups.remove(groupId, group);
        return true;
    }

    /** Registry thread: the group's nodes were deleted; a later commit writes its kafka-group node again. */
    void forgetKafkaGroup(String groupId) {
        kafkaGroups.remove(groupId);
    }

    /** The groups on the consumer group protocol (KIP-848) coordinated here. */
    ConsumerGroups consumerGroups() {
        return consumerGroups;
    }

    GroupConfig config() {
        return config;
    }

    long nowMs() {
        return time.hiResClockMs();
    }

    /**
     * The broker coordinating {@code groupId}: the leader of its partition of the offsets topic, by
     * this broker's metadata; empty while it has none (the topic is created on the first call).
     */
    Optional<BrokerInfo> coordinatorOf(String groupId) {
        return journal.coordinatorOf(groupId);
    }

    /**
     * Whether this broker leads the group's partition of the offsets topic and has loaded it, and is
     * not stopping: a stopping broker answers NOT_COORDINATOR, which sends members to the next
     * coordinator with their ids, where UNKNOWN_MEMBER_ID for a group it has just dropped would make
     * them rejoin.
     */
    boolean isCoordinatorOf(String groupId) {
        return !closed && journal.isLoaded(groupId);
    }

    /**
     * Completes with the group's coordinator once its partition has a leader and, when that is this
     * broker, once it has loaded the partition; with empty after {@code timeoutMs}.
     */
    CompletableFuture<Optional<BrokerInfo>> awaitCoordinator(String groupId, long timeoutMs) {
        CompletableFuture<Optional<BrokerInfo>> result = new CompletableFuture<>();
        awaitCoordinator(groupId, nowMs() + timeoutMs, result);
        return result;
    }

    /**
     * Completes once the offsets topic exists and this broker has loaded every partition of it that
     * it leads (creating the topic if needed), or after {@code timeoutMs} regardless: listing
     * groups waits for it so that a new cluster lists the groups known only from ZooKeeper.
     */
    CompletableFuture<Void> awaitOffsetsTopicLoaded(long timeoutMs) {
        CompletableFuture<Void> result = new CompletableFuture<>();
        awaitLoaded(nowMs() + timeoutMs, result);
        return result;
    }

    private void awaitLoaded(long deadlineMs, CompletableFuture<Void> result) {
        if (journal.allLedLoaded() || nowMs() >= deadlineMs) {
            result.complete(null);
            return;
        }
        try {
            timer.schedule(() -> awaitLoaded(deadlineMs, result), 10, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            result.complete(null);
        }
    }

    /** The id of the group's coordinator, waiting as FindCoordinator does (creating the offsets topic if needed); -1 if none. */
    public int findCoordinator(String groupId, long timeoutMs) {
        return awaitCoordinator(groupId, timeoutMs).join().map(BrokerInfo::id).orElse(-1);
    }

    private void awaitCoordinator(String groupId, long deadlineMs, CompletableFuture<Optional<BrokerInfo>> result) {
        Optional<BrokerInfo> found = coordinatorOf(groupId);
        boolean ready = found.isPresent() && (found.get().id() != brokerId || isCoordinatorOf(groupId));
        if (ready || nowMs() >= deadlineMs) {
            result.complete(ready ? found : Optional.empty());
            return;
        }
        try {
            timer.schedule(() -> awaitCoordinator(groupId, deadlineMs, result), 10, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            result.complete(Optional.empty());
        }
    }

    /** The group, created empty if needed; empty when another broker coordinates it. */
    Optional<ClassicGroup> group(String groupId) {
        if (!isCoordinatorOf(groupId)) {
            return Optional.empty();
        }
        return Optional.of(groups.computeIfAbsent(groupId, this::newGroup));
    }

    private ClassicGroup newGroup(String groupId) {
        return new ClassicGroup(groupId, config, this::afterDelay, this::storeGeneration);
    }

    /**
     * Appends the group's generation to its partition of the offsets topic; completes on the timer
     * thread, never on the thread that replicated it, so the group's lock is not taken under the
     * replica's.
     */
    private CompletableFuture<Void> storeGeneration(String groupId, GroupMetadataRecord record) {
        CompletableFuture<Void> stored = journal.storeGroup(groupId, record == null ? null : record.value());
        if (record == null) {
            stored.whenComplete((ok, failure) -> {
                if (failure != null) {
                    LOG.debug("Could not record that group {} has no generation: {}", groupId, failure.toString());
                }
            });
        }
        return stored.thenApplyAsync(ok -> ok, timer);
    }

    /**
     * {@link #group}, once {@code dead} (retired by the tick after it was looked up, or unloaded) is out
     * of the way: a fresh group where this broker still coordinates the id.
     */
    Optional<ClassicGroup> groupAfter(ClassicGroup dead) {
        groups.remove(dead.groupId(), dead);
        return group(dead.groupId());
    }

    private void afterDelay(long delayMs, java.util.function.LongConsumer task) {
        try {
            timer.schedule(() -> task.accept(nowMs()), delayMs, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            // shutting down
        }
    }

    /** The group if it is in memory here (and coordinated here), without creating one. */
    Optional<ClassicGroup> existingGroup(String groupId) {
        return isCoordinatorOf(groupId) ? Optional.ofNullable(groups.get(groupId)) : Optional.empty();
    }

    /**
     * Appends a commit to the offsets topic; it completes once replicated there. One from outside
     * any group ({@code outsideTheGroup}: generation -1, e.g. an admin altering offsets) fails with
     * {@link ZooKeeperMembersException} while ZooKeeper group consumers are registered in the group,
     * as they would overwrite it and it theirs. The group's first commit through this broker first
     * writes its {@code kafka-group} node; both checks run on the registry thread, the append
     * itself on the caller's.
     */
    CompletableFuture<Void> commit(String groupId, Map<TopicPartition, OffsetRegistry.Committed> committed,
                                   boolean outsideTheGroup) {
        if (!outsideTheGroup && kafkaGroups.contains(groupId)) {
            return journal.append(groupId, committed);
        }
        return onRegistryThread(() -> {
            if (outsideTheGroup && !nodes.zookeeperMembers(groupId).isEmpty()) {
                throw new ZooKeeperMembersException("Group " + groupId + " has members of Millrace's ZooKeeper "
                    + "group consumer " + nodes.zookeeperMembers(groupId) + "; a commit from outside it is refused");
            }
            if (!kafkaGroups.contains(groupId)) {
                nodes.ensureKafkaGroup(groupId);
                kafkaGroups.add(groupId);
            }
            return null;
        }).thenCompose(checked -> journal.append(groupId, committed));
    }

    /**
     * Appends a transactional producer's commits in its open transaction (TxnOffsetCommit); they
     * count once its transaction commits. The group's first commit through this broker first writes
     * its {@code kafka-group} node, as for {@link #commit}.
     */
    CompletableFuture<Void> commitInTransaction(String groupId, long producerId, short producerEpoch,
                                                Map<TopicPartition, OffsetRegistry.Committed> committed) {
        if (kafkaGroups.contains(groupId)) {
            return journal.appendTransactional(groupId, producerId, producerEpoch, committed);
        }
        return onRegistryThread(() -> {
            if (!kafkaGroups.contains(groupId)) {
                nodes.ensureKafkaGroup(groupId);
                kafkaGroups.add(groupId);
            }
            return null;
        }).thenCompose(checked -> journal.appendTransactional(groupId, producerId, producerEpoch, committed));
    }

    /** A transaction marker was appended to a partition of {@code __consumer_offsets} led here. */
    public void onTransactionMarker(TopicPartition partition, long producerId, boolean commit) {
        if (partition.topic().equals(OffsetsTopic.NAME)) {
            journal.onMarker(partition.partition(), producerId, commit);
        }
    }

    /** Whether an open transaction holds a commit of the group's partition. */
    boolean hasPendingCommit(String groupId, TopicPartition partition) {
        return journal.hasPendingCommit(groupId, partition);
    }

    /** Registry thread: writes the group's commits still only in the offsets topic to the registry (before deletions). */
    void writeCommitsNow(String groupId) {
        journal.writeNow(groupId);
    }

    /** The partitions with commits of the group not yet in the registry. */
    List<TopicPartition> unwrittenPartitions(String groupId) {
        return journal.unwrittenPartitions(groupId);
    }

    /** A group of ZooKeeper group consumers refused a Kafka-protocol commit. */
    static final class ZooKeeperMembersException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ZooKeeperMembersException(String message) {
            super(message);
        }
    }

    /** The committed offsets of {@code partitions}, or of every partition the group has one for when null. */
    CompletableFuture<Map<TopicPartition, OffsetRegistry.Committed>> fetch(String groupId, List<TopicPartition> partitions) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                Map<TopicPartition, OffsetRegistry.Committed> committed =
                    offsets.fetch(groupId, partitions != null ? partitions : offsets.partitionsOf(groupId));
                if (!journal.overlay(groupId, committed, partitions)) {
                    throw new IllegalStateException("The offsets partition of group " + groupId + " is not loaded here");
                }
                return committed;
            } catch (Exception e) {
                throw new IllegalStateException("Could not read offsets of group " + groupId, e);
            }
        }, registryThread);
    }

    private void tick() {
        try {
            journal.refresh();
            long now = nowMs();
            for (ClassicGroup group : groups.values()) {
                if (!isCoordinatorOf(group.groupId()) && !journal.isLoading(group.groupId())) {
                    LOG.info("Group {} is now coordinated by broker {}; dropping it here", group.groupId(),
                        coordinatorOf(group.groupId()).map(BrokerInfo::id).orElse(-1));
                    group.unload();
                    groups.remove(group.groupId(), group);
                    continue;
                }
                group.tick(now);
                if (group.retireIfIdle()) {
                    groups.remove(group.groupId(), group);
                }
            }
            consumerGroups.tick(now, id -> isCoordinatorOf(id) || journal.isLoading(id));
            reconcileMarkers(++ticks % MARKER_VERIFY_TICKS == 0);
        } catch (RuntimeException e) {
            LOG.error("Group coordinator tick failed", e);
        }
    }

    /**
     * Has the registry thread bring the {@code kafka-members} markers in line with the groups that
     * have members, when they differ from what is marked, and every few seconds to put back markers
     * lost with an expired ZooKeeper session.
     */
    private void reconcileMarkers(boolean verify) {
        if ((verify || markersBehind()) && reconcileQueued.compareAndSet(false, true)) {
            registryThread.execute(() -> {
                reconcileQueued.set(false);
                Map<String, String> live = new HashMap<>();
                for (ClassicGroup g : activeGroups()) {
                    live.put(g.groupId(), g.describe().protocolType());
                }
                for (ConsumerGroup g : consumerGroups.active()) {
                    live.put(g.groupId(), SubscribedTopics.CONSUMER_PROTOCOL_TYPE);
                }
                markers.reconcile(live, this::isCoordinatorOf, verify);
            });
        }
    }

    /** Whether a group has gained or lost its members, or its first member's protocol type, since the last reconcile. */
    private boolean markersBehind() {
        Map<String, String> marked = markers.view();
        List<ClassicGroup> active = activeGroups();
        List<ConsumerGroup> consumers = consumerGroups.active();
        if (active.size() + consumers.size() != marked.size()) {
            return true;
        }
        for (ConsumerGroup g : consumers) {
            if (!marked.containsKey(g.groupId())) {
                return true;
            }
        }
        for (ClassicGroup g : active) {
            String protocolType = marked.get(g.groupId());
            if (protocolType == null || protocolType.isEmpty() && !g.describe().protocolType().isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** Answers every waiting member NOT_COORDINATOR and stops the threads. */
    @Override
    public void close() {
        closed = true;
        timer.shutdownNow();
        registryThread.shutdownNow();
        groups.values().forEach(ClassicGroup::unload);
        groups.clear();
        consumerGroups.clear();
    }
}
