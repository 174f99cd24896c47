package io.millrace.broker.cluster;

import java.util.List;
import java.util.Map;

/**
 * A topic creation, deletion or partition increase request znode as read back from ZooKeeper.
 * {@code error} is null while the request is pending, and an {@link AdminError} name once the
 * controller rejected it.
 *
 * @param partitions the requested partition count (for a partition increase, the new total); 0 for deletions
 * @param replicationFactor for a creation, the replicas per partition (1 in requests written without one)
 * @param assignment for a partition increase, the replicas of each new partition in partition order
 *     (first the preferred leader), or empty to let the controller place them
 * @param creationZxid identifies this request among successive ones for the same topic
 * @param version the znode's data version, for conditional updates
 */
record AdminRequest(Kind kind, String topic, int partitions, int replicationFactor, Map<String, String> config,
                    List<List<Integer>> assignment, String error, String message, long creationZxid, int version) {

    enum Kind { CREATE, DELETE, CREATE_PARTITIONS }

    AdminRequest {
        config = Map.copyOf(config);
        assignment = assignment.stream().map(List::copyOf).toList();
    }

    boolean isPending() {
        return error == null;
    }

    String path() {
        return path(kind, topic);
    }

    static String path(Kind kind, String topic) {
        return switch (kind) {
            case CREATE -> ClusterPaths.createTopicRequest(topic);
            case DELETE -> ClusterPaths.deleteTopicRequest(topic);
            case CREATE_PARTITIONS -> ClusterPaths.createPartitionsRequest(topic);
        };
    }

    /** The kind of request a znode under one of the request directories is. */
    static Kind kindOf(String path) {
        if (path.startsWith(ClusterPaths.CREATE_TOPIC_REQUESTS + "/")) {
            return Kind.CREATE;
        }
        return path.startsWith(ClusterPaths.DELETE_TOPIC_REQUESTS + "/") ? Kind.DELETE : Kind.CREATE_PARTITIONS;
    }
}
