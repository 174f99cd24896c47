package io.millrace.broker.cluster;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;

/**
 * A topic's replica assignment as the controller wrote it: partition → the ids of the brokers that
 * hold a replica of it, the first being its preferred leader. Who leads now is in the partition's
 * {@link PartitionState}. Immutable.
 *
 * @param reassignments the partitions moving to new replica lists ({@link Reassignment}), by partition
 * @param creationZxid the ZooKeeper transaction that created the topic znode: it tells one
 *     incarnation of a name from the next, so a topic deleted and created again under the same
 *     name is recognisably a different topic (the log layer must not keep the old data)
 * @param topicId the id clients see in Metadata v10+ ({@link #topicIdOf}), derived from the name and
 *     the creation transaction so that every broker computes the same id without storing one
 */
public record TopicMetadata(String name, SortedMap<Integer, List<Integer>> replicas,
                            SortedMap<Integer, Reassignment> reassignments, long creationZxid, UUID topicId) {

    public TopicMetadata {
        Objects.requireNonNull(name, "name");
        SortedMap<Integer, List<Integer>> copy = new TreeMap<>();
        replicas.forEach((partition, ids) -> copy.put(partition, List.copyOf(ids)));
        replicas = Collections.unmodifiableSortedMap(copy);
        reassignments = Collections.unmodifiableSortedMap(new TreeMap<>(reassignments));
        Objects.requireNonNull(topicId, "topicId");
    }

    public TopicMetadata(String name, SortedMap<Integer, List<Integer>> replicas, long creationZxid) {
        this(name, replicas, new TreeMap<>(), creationZxid);
    }

    public TopicMetadata(String name, SortedMap<Integer, List<Integer>> replicas,
                         SortedMap<Integer, Reassignment> reassignments, long creationZxid) {
        this(name, replicas, reassignments, creationZxid, topicIdOf(name, creationZxid));
    }

    /**
     * The topic id of one incarnation of a topic: a name-based (version 3) UUID of the name and the
     * creation transaction. A topic deleted and created again under the same name gets a new id, which
     * is what lets a client holding offsets (the loader, a consumer) notice that the data it read is gone.
     */
    public static UUID topicIdOf(String name, long creationZxid) {
        return UUID.nameUUIDFromBytes((name + '\u0000' + creationZxid).getBytes(StandardCharsets.UTF_8));
    }

    public int partitionCount() {
        return replicas.size();
    }

    /** The partition's replicas, first the preferred leader; empty when the topic has no such partition. */
    public List<Integer> replicas(int partition) {
        return replicas.getOrDefault(partition, List.of());
    }

    /** Partition → preferred leader (its first replica): the whole assignment of a topic with one replica per partition. */
    public SortedMap<Integer, Integer> assignment() {
        SortedMap<Integer, Integer> preferred = new TreeMap<>();
        replicas.forEach((partition, ids) -> preferred.put(partition, ids.get(0)));
        return Collections.unmodifiableSortedMap(preferred);
    }

    /** The partition's preferred leader, live or not, or -1 when the topic has no such partition. */
    public int assignedBroker(int partition) {
        List<Integer> ids = replicas.get(partition);
        return ids == null ? -1 : ids.get(0);
    }

    /** The number of replicas of each partition (that of partition 0; the controller gives every partition the same). */
    public int replicationFactor() {
        return replicas.isEmpty() ? 0 : replicas.get(replicas.firstKey()).size();
    }

    /** Whether {@code brokerId} holds a replica of any partition of the topic. */
    public boolean hasReplicaOn(int brokerId) {
        return replicas.values().stream().anyMatch(ids -> ids.contains(brokerId));
    }
}
