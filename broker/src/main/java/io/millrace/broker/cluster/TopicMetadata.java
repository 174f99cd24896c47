package io.millrace.broker.cluster;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;

/**
 * A topic's partition assignment as the controller wrote it: partition → the id of the broker
 * that holds it (replication is future work, so one broker per partition). Immutable.
 *
 * @param creationZxid the ZooKeeper transaction that created the topic znode: it tells one
 *     incarnation of a name from the next, so a topic deleted and created again under the same
 *     name is recognisably a different topic (the log layer must not keep the old data)
 * @param topicId the id clients see in Metadata v10+ ({@link #topicIdOf}), derived from the name and
 *     the creation transaction so that every broker computes the same id without storing one
 */
public record TopicMetadata(String name, SortedMap<Integer, Integer> assignment, long creationZxid, UUID topicId) {

    public TopicMetadata {
        Objects.requireNonNull(name, "name");
        assignment = Collections.unmodifiableSortedMap(new TreeMap<>(assignment));
        Objects.requireNonNull(topicId, "topicId");
    }

    public TopicMetadata(String name, SortedMap<Integer, Integer> assignment, long creationZxid) {
        this(name, assignment, creationZxid, topicIdOf(name, creationZxid));
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
        return assignment.size();
    }

    /** The broker the partition is assigned to, live or not, or -1 when the topic has no such partition. */
    public int assignedBroker(int partition) {
        Integer broker = assignment.get(partition);
        return broker == null ? -1 : broker;
    }
}
