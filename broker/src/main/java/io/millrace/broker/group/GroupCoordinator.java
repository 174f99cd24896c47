package io.millrace.broker.group;

import io.millrace.broker.cluster.BrokerInfo;
import io.millrace.broker.cluster.MetadataCache;
import io.millrace.common.TopicPartition;
import io.millrace.common.utils.Time;
import java.util.HashMap;
import java.util.HashSet;
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
 * (chosen by {@link CoordinatorChoice}), kept in memory, and their committed offsets in the
 * {@link OffsetRegistry}. One timer thread checks the groups' deadlines every {@value #TICK_MS} ms
 * (delayed JoinGroup answers complete there when the rebalance timeout passes, and members past
 * their session timeout are removed) and drops the groups whose coordinator has moved to another
 * broker, answering their waiting members NOT_COORDINATOR so they look for the new one. ZooKeeper
 * reads and writes run on one thread of their own, never on a request thread: commits (those queued
 * together in one transaction, {@link CommitBatcher}), the group
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
    private final ScheduledExecutorService timer;
    private final ScheduledExecutorService registryThread;
    private final CommitBatcher commits;
    /** Groups whose kafka-group node this broker has made sure of; registry thread only. */
    private final Set<String> kafkaGroups = new HashSet<>();
    private final AtomicBoolean reconcileQueued = new AtomicBoolean();
    private long ticks;

    public GroupCoordinator(int brokerId, MetadataCache metadata, org.apache.curator.framework.CuratorFramework curator,
                            GroupConfig config, Time time) {
        this.brokerId = brokerId;
        this.metadata = metadata;
        this.config = config;
        this.time = time;
        this.offsets = new OffsetRegistry(curator);
        this.nodes = new GroupNodes(curator, brokerId);
        this.markers = new GroupMarkers(nodes, time);
        this.timer = daemon("millrace-broker-" + brokerId + "-group-timer");
        this.registryThread = daemon("millrace-broker-" + brokerId + "-group-offsets");
        this.commits = new CommitBatcher(offsets, registryThread);
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
            this::isIdleHere, this::forgetKafkaGroup);
        long interval = config.offsetsRetentionCheckIntervalMs();
        registryThread.scheduleWithFixedDelay(retention::run, interval, interval, TimeUnit.MILLISECONDS);
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
     */
    CompletableFuture<String> claimForKafka(String groupId) {
        return onRegistryThread(() -> markers.claim(groupId));
    }

    /** Whether this broker coordinates the group and holds none of its members (or members waiting to join). */
    boolean isIdleHere(String groupId) {
        return isCoordinatorOf(groupId) && Optional.ofNullable(groups.get(groupId)).map(ClassicGroup::isIdle).orElse(true);
    }

    /** The groups coordinated here that have members, or members waiting to join. */
    List<ClassicGroup> activeGroups() {
        return groups.values().stream().filter(g -> !g.isIdle() && isCoordinatorOf(g.groupId())).toList();
    }

    /** Drops the in-memory group if it is idle (DeleteGroups); false when it has members. */
    boolean retireIfIdle(String groupId) {
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

    GroupConfig config() {
        return config;
    }

    long nowMs() {
        return time.hiResClockMs();
    }

    /** The broker coordinating {@code groupId}, by the live brokers this broker knows of. */
    Optional<BrokerInfo> coordinatorOf(String groupId) {
        return CoordinatorChoice.coordinatorOf(groupId, metadata.liveBrokers());
    }

    boolean isCoordinatorOf(String groupId) {
        return coordinatorOf(groupId).map(b -> b.id() == brokerId).orElse(false);
    }

    /** The group, created empty if needed; empty when another broker coordinates it. */
    Optional<ClassicGroup> group(String groupId) {
        if (!isCoordinatorOf(groupId)) {
            return Optional.empty();
        }
        return Optional.of(groups.computeIfAbsent(groupId, id -> new ClassicGroup(id, config, this::afterDelay)));
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

    CompletableFuture<Void> commit(String groupId, Map<TopicPartition, OffsetRegistry.Committed> committed) {
        return commit(groupId, committed, false);
    }

    /**
     * Writes a commit. One from outside any group ({@code outsideTheGroup}: generation -1, e.g. an
     * admin altering offsets) fails with {@link ZooKeeperMembersException} while ZooKeeper group
     * consumers are registered in the group, as they would overwrite it and it theirs.
     */
    CompletableFuture<Void> commit(String groupId, Map<TopicPartition, OffsetRegistry.Committed> committed,
                                   boolean outsideTheGroup) {
        return commits.submit(groupId, committed, () -> {
            if (outsideTheGroup && !nodes.zookeeperMembers(groupId).isEmpty()) {
                throw new ZooKeeperMembersException("Group " + groupId + " has members of Millrace's ZooKeeper "
                    + "group consumer " + nodes.zookeeperMembers(groupId) + "; a commit from outside it is refused");
            }
            if (kafkaGroups.add(groupId)) {
                try {
                    nodes.ensureKafkaGroup(groupId);
                } catch (Exception e) {
                    kafkaGroups.remove(groupId);
                    throw new IllegalStateException("Could not commit offsets of group " + groupId, e);
                }
            }
        });
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
                return offsets.fetch(groupId, partitions != null ? partitions : offsets.partitionsOf(groupId));
            } catch (Exception e) {
                throw new IllegalStateException("Could not read offsets of group " + groupId, e);
            }
        }, registryThread);
    }

    private void tick() {
        try {
            long now = nowMs();
            for (ClassicGroup group : groups.values()) {
                if (!isCoordinatorOf(group.groupId())) {
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
                markers.reconcile(live, this::isCoordinatorOf, verify);
            });
        }
    }

    /** Whether a group has gained or lost its members, or its first member's protocol type, since the last reconcile. */
    private boolean markersBehind() {
        Map<String, String> marked = markers.view();
        List<ClassicGroup> active = activeGroups();
        if (active.size() != marked.size()) {
            return true;
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
        timer.shutdownNow();
        registryThread.shutdownNow();
        groups.values().forEach(ClassicGroup::unload);
        groups.clear();
    }
}
