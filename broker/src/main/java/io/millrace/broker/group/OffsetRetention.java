package io.millrace.broker.group;

import io.millrace.common.TopicPartition;
import io.millrace.common.utils.Time;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Expires the committed offsets of Kafka-protocol groups without members, Kafka's rule: a group that
 * has had members loses all its offsets once it has been empty for {@code offsets.retention.minutes}
 * (counted from when it became empty, or from its last commit if that came later, e.g. offsets
 * altered by an admin, or when its coordinator died without recording the time); a group that never
 * had members (consumers that only {@code assign()}) loses each offset that long after it was
 * committed. Only groups with a {@code kafka-group} node are touched, so the offsets of the
 * ZooKeeper group consumer never expire; nor do those of a group with members of either kind. Runs
 * on the coordinator's registry thread, every {@code offsets.retention.check.interval.ms}, over the
 * groups this broker coordinates.
 */
final class OffsetRetention {

    private static final Logger LOG = LoggerFactory.getLogger(OffsetRetention.class);

    private final GroupNodes nodes;
    private final OffsetRegistry offsets;
    private final Time time;
    private final long retentionMs;
    private final Predicate<String> idleHere;
    private final Consumer<String> forget;

    /**
     * @param idleHere whether this broker coordinates the group and holds no member of it
     * @param forget   told of every group deleted
     */
    OffsetRetention(GroupNodes nodes, OffsetRegistry offsets, Time time, long retentionMs, Predicate<String> idleHere,
                    Consumer<String> forget) {
        this.nodes = nodes;
        this.offsets = offsets;
        this.time = time;
        this.retentionMs = retentionMs;
        this.idleHere = idleHere;
        this.forget = forget;
    }

    void run() {
        try {
            for (String group : nodes.groups()) {
                if (idleHere.test(group)) {
                    expire(group);
                }
            }
        } catch (Exception e) {
            LOG.warn("Offset retention check failed; trying again at the next interval", e);
        }
    }

    private void expire(String group) throws Exception {
        GroupNodes.KafkaGroup kafkaGroup = nodes.kafkaGroup(group);
        if (kafkaGroup == null || nodes.markedElsewhere(group) || !nodes.zookeeperMembers(group).isEmpty()) {
            return;
        }
        Map<TopicPartition, Long> committed = offsets.commitTimes(group);
        long now = time.milliseconds();
        List<TopicPartition> expired;
        if (kafkaGroup.protocolType().isEmpty()) {
            expired = committed.entrySet().stream().filter(e -> now - e.getValue() >= retentionMs).map(Map.Entry::getKey)
                .toList();
        } else {
            long lastCommit = committed.values().stream().mapToLong(t -> t).max().orElse(-1);
            long since = Math.max(kafkaGroup.emptySinceMs(), lastCommit);
            expired = now - since >= retentionMs ? List.copyOf(committed.keySet()) : List.of();
        }
        if (expired.size() == committed.size() && (!committed.isEmpty() || now - kafkaGroup.emptySinceMs() >= retentionMs)) {
            nodes.deleteGroup(group);
            forget.accept(group);
            LOG.info("Group {}: the offsets of {} partitions expired ({} min without members or commits); group deleted",
                group, expired.size(), retentionMs / 60_000);
        } else if (!expired.isEmpty()) {
            offsets.delete(group, expired);
            LOG.info("Group {}: the offsets of {} partitions expired, committed over {} min ago", group, expired.size(),
                retentionMs / 60_000);
        }
    }
}
