package io.millrace.broker.cluster;

import io.millrace.common.TopicPartition;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns successive snapshots into the partitions one broker gained and lost. It compares each
 * snapshot with the last one it reported rather than with the previous snapshot, so it starts
 * correctly from whatever snapshot it first sees. A partition whose topic was re-created (a new
 * creation zxid) counts as lost and gained.
 *
 * <p>Not thread-safe: called on the metadata notification thread only.
 */
final class AssignmentTracker implements MetadataListener {

    private static final Logger log = LoggerFactory.getLogger(AssignmentTracker.class);

    private final int brokerId;
    private final PartitionAssignmentListener listener;
    /** Partition → creation zxid of its topic, as last reported. */
    private Map<TopicPartition, Long> reported = Map.of();

    AssignmentTracker(int brokerId, PartitionAssignmentListener listener) {
        this.brokerId = brokerId;
        this.listener = listener;
    }

    @Override
    public void onMetadataChange(ClusterSnapshot previous, ClusterSnapshot current) {
        Map<TopicPartition, Long> now = assigned(current);
        SortedSet<TopicPartition> lost = difference(reported, now);
        SortedSet<TopicPartition> gained = difference(now, reported);
        reported = now;
        if (!lost.isEmpty()) {
            log.info("Broker {} no longer holds {}", brokerId, lost);
            listener.onPartitionsUnassigned(lost, current);
        }
        if (!gained.isEmpty()) {
            log.info("Broker {} now holds {}", brokerId, gained);
            listener.onPartitionsAssigned(gained, current);
        }
    }

    private Map<TopicPartition, Long> assigned(ClusterSnapshot snapshot) {
        Map<TopicPartition, Long> assigned = new HashMap<>();
        for (TopicPartition partition : snapshot.partitionsAssignedTo(brokerId)) {
            assigned.put(partition, snapshot.topic(partition.topic()).map(TopicMetadata::creationZxid).orElse(-1L));
        }
        return assigned;
    }

    /** Partitions in {@code a} that {@code b} lacks or has from another incarnation of the topic. */
    private static SortedSet<TopicPartition> difference(Map<TopicPartition, Long> a, Map<TopicPartition, Long> b) {
        SortedSet<TopicPartition> result = new TreeSet<>();
        a.forEach((partition, zxid) -> {
            if (!Objects.equals(zxid, b.get(partition))) {
                result.add(partition);
            }
        });
        return result;
    }

    @Override
    public String toString() {
        return "AssignmentTracker(broker " + brokerId + ", " + listener + ")";
    }
}
