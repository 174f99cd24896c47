package io.millrace.broker.group;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer-protocol groups a coordinator holds, by id. A group lives while it has members and
 * this broker coordinates it; its offsets are kept as every group's are.
 */
final class ConsumerGroups {

    private static final Logger LOG = LoggerFactory.getLogger(ConsumerGroups.class);

    private final GroupConfig config;
    private final BiFunction<String, GroupMetadataRecord, CompletableFuture<Void>> store;
    private final LongSupplier clock;
    private final Map<String, ConsumerGroup> groups = new ConcurrentHashMap<>();

    /**
     * @param store appends a group's snapshot (or its tombstone, null) to its partition of the offsets topic
     */
    ConsumerGroups(GroupConfig config, BiFunction<String, GroupMetadataRecord, CompletableFuture<Void>> store,
                   LongSupplier clock) {
        this.config = config;
        this.store = store;
        this.clock = clock;
    }

    /**
     * Runs {@code call} on the group, created if needed, atomically with the map: the tick cannot drop
     * a group between its creation and its first member's join, and a group left empty goes at once.
     */
    ConsumerGroup.Answer call(String groupId, Function<ConsumerGroup, ConsumerGroup.Answer> call) {
        ConsumerGroup.Answer[] answer = new ConsumerGroup.Answer[1];
        ConsumerGroup[] called = new ConsumerGroup[1];
        groups.compute(groupId, (id, group) -> {
            ConsumerGroup g = group != null ? group : new ConsumerGroup(id, config);
            answer[0] = call.apply(g);
            called[0] = g;
            return g.isEmpty() ? null : g;
        });
        persist(called[0]);
        return answer[0];
    }

    /**
     * Appends the group's snapshot when it differs from the last one appended (or that one failed),
     * without waiting for it:
     * a coordinator that dies before it is replicated leaves the next one an older epoch, whose members
     * are then fenced and join again, as if nothing had been stored.
     */
    private void persist(ConsumerGroup group) {
        synchronized (group.storeLock) {
            GroupMetadataRecord snapshot = group.snapshot(clock.getAsLong());
            byte[] bytes = snapshot == null ? new byte[0] : withoutTime(snapshot).value();
            if (java.util.Arrays.equals(bytes, group.stored) || snapshot == null && group.stored == null) {
                return;
            }
            group.stored = bytes;
            store.apply(group.groupId(), snapshot).whenComplete((ok, failure) -> {
                if (failure != null) {
                    // stored again at the group's next heartbeat, which compares with what is stored
                    LOG.debug("Could not store consumer group {}: {}", group.groupId(), failure.toString());
                    synchronized (group.storeLock) {
                        if (group.stored == bytes) {
                            group.stored = null;
                        }
                    }
                }
            });
        }
    }

    /** The snapshot with its time left out, to compare it with the last one stored. */
    private static GroupMetadataRecord withoutTime(GroupMetadataRecord r) {
        return new GroupMetadataRecord(r.protocolType(), r.generation(), r.protocol(), r.leader(), 0, r.members());
    }

    /** Takes over a group the previous coordinator stored; replaces any copy left here from an earlier time. */
    void restore(String groupId, GroupMetadataRecord record) {
        ConsumerGroup group = ConsumerGroup.restore(groupId, config, record, clock.getAsLong());
        synchronized (group.storeLock) {
            group.stored = withoutTime(record).value();
        }
        groups.put(groupId, group);
    }

    /** Drops the groups held here whose offsets partition is {@code partition}: the log is read anew. */
    void dropPartition(int partition, int partitions) {
        groups.keySet().removeIf(id -> OffsetsTopic.partitionFor(id, partitions) == partition);
    }

    /** The group if it has members here. */
    Optional<ConsumerGroup> active(String groupId) {
        return Optional.ofNullable(groups.get(groupId)).filter(g -> !g.isEmpty());
    }

    /** Every group with members here. */
    List<ConsumerGroup> active() {
        return groups.values().stream().filter(g -> !g.isEmpty()).toList();
    }

    /** Ends expired sessions and overdue revocations; drops empty groups and those now coordinated elsewhere. */
    void tick(long nowMs, Predicate<String> coordinatedHere) {
        for (ConsumerGroup group : groups.values()) {
            if (!coordinatedHere.test(group.groupId())) {
                LOG.info("Consumer group {} is no longer coordinated here; its members go to the next coordinator",
                    group.groupId());
                groups.remove(group.groupId(), group);
                continue;
            }
            boolean[] changed = new boolean[1];
            groups.computeIfPresent(group.groupId(), (id, g) -> {
                List<String> expired = g.expire(nowMs);
                if (!expired.isEmpty()) {
                    LOG.info("Removed members {} of consumer group {}: session or rebalance timeout passed", expired, id);
                    changed[0] = true;
                }
                return g.isEmpty() ? null : g;
            });
            if (changed[0]) {
                persist(group);
            }
        }
    }

    void clear() {
        groups.clear();
    }
}
