package io.millrace.broker.group;

import io.millrace.broker.cluster.BrokerInfo;
import io.millrace.broker.cluster.MetadataCache;
import io.millrace.common.TopicPartition;
import io.millrace.common.utils.Time;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's group coordinator for Kafka's classic protocol: the groups this broker coordinates
 * (chosen by {@link CoordinatorChoice}), kept in memory, and their committed offsets in the
 * {@link OffsetRegistry}. One timer thread checks the groups' deadlines every {@value #TICK_MS} ms
 * (delayed JoinGroup answers complete there when the rebalance timeout passes, and members past
 * their session timeout are removed) and drops the groups whose coordinator has moved to another
 * broker, answering their waiting members NOT_COORDINATOR so they look for the new one. ZooKeeper
 * reads and writes run on one thread of their own, never on a request thread.
 */
public final class GroupCoordinator implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GroupCoordinator.class);

    static final long TICK_MS = 100;

    private final int brokerId;
    private final MetadataCache metadata;
    private final GroupConfig config;
    private final Time time;
    private final OffsetRegistry offsets;
    private final Map<String, ClassicGroup> groups = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer;
    private final ScheduledExecutorService registryThread;

    public GroupCoordinator(int brokerId, MetadataCache metadata, org.apache.curator.framework.CuratorFramework curator,
                            GroupConfig config, Time time) {
        this.brokerId = brokerId;
        this.metadata = metadata;
        this.config = config;
        this.time = time;
        this.offsets = new OffsetRegistry(curator);
        this.timer = daemon("millrace-broker-" + brokerId + "-group-timer");
        this.registryThread = daemon("millrace-broker-" + brokerId + "-group-offsets");
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
        return Optional.of(groups.computeIfAbsent(groupId, id -> new ClassicGroup(id, config)));
    }

    /** The group if it is in memory here (and coordinated here), without creating one. */
    Optional<ClassicGroup> existingGroup(String groupId) {
        return isCoordinatorOf(groupId) ? Optional.ofNullable(groups.get(groupId)) : Optional.empty();
    }

    CompletableFuture<Void> commit(String groupId, Map<TopicPartition, OffsetRegistry.Committed> committed) {
        return CompletableFuture.runAsync(() -> {
            try {
                offsets.commit(groupId, committed);
            } catch (Exception e) {
                throw new IllegalStateException("Could not commit offsets of group " + groupId, e);
            }
        }, registryThread);
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
        } catch (RuntimeException e) {
            LOG.error("Group coordinator tick failed", e);
        }
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
