package io.millrace.broker.cluster;

import java.util.Map;

/**
 * A topic creation or deletion request znode as read back from ZooKeeper. {@code error} is null
 * while the request is pending, and an {@link AdminError} name once the controller rejected it.
 *
 * @param partitions the requested partition count; 0 for deletions
 * @param creationZxid identifies this request among successive ones for the same topic
 * @param version the znode's data version, for conditional updates
 */
record AdminRequest(Kind kind, String topic, int partitions, Map<String, String> config,
                    String error, String message, long creationZxid, int version) {

    enum Kind { CREATE, DELETE }

    AdminRequest {
        config = Map.copyOf(config);
    }

    boolean isPending() {
        return error == null;
    }

    String path() {
        return kind == Kind.CREATE ? ClusterPaths.createTopicRequest(topic) : ClusterPaths.deleteTopicRequest(topic);
    }
}
