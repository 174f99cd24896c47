package io.millrace.broker.cluster;

import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A topic's partition assignment as the controller wrote it: partition → the id of the broker
 * that holds it (replication is future work, so one broker per partition). Immutable.
 *
 * @param creationZxid the ZooKeeper transaction that created the topic znode: it tells one
 *     incarnation of a name from the next, so a topic deleted and created again under the same
 *     name is recognisably a different topic (the log layer must not keep the old data)
 */
public record TopicMetadata(String name, SortedMap<Integer, Integer> assignment, long creationZxid) {

    public TopicMetadata {
        Objects.requireNonNull(name, "name");
        assignment = Collections.unmodifiableSortedMap(new TreeMap<>(assignment));
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
