package io.millrace.broker.group;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * The nodes by which a group id is of one kind at a time, and by which the coordinator knows a
 * Kafka-protocol group after its members are gone:
 * <pre>
 * /millrace/consumers/&lt;group&gt;/kafka-members  EPHEMERAL   the coordinator, while the group has Kafka-protocol members
 *     {"version":1,"broker":0}
 * /millrace/consumers/&lt;group&gt;/kafka-group    persistent  the coordinator: created by the group's first Kafka-protocol
 *     commit or member, rewritten when it loses its last member
 *     {"version":1,"protocol_type":"consumer","empty_since":1700000000000}   ("" and -1 until it has had members)
 * /millrace/consumers/&lt;group&gt;/ids/...          the ZooKeeper group consumer's registrations (read here, never written)
 * </pre>
 * Millrace's ZooKeeper group consumer refuses to join a group whose {@code kafka-members} node
 * exists; the coordinator refuses a JoinGroup to a group with children under {@code ids}. Each side
 * writes its own node before it checks the other's, so of two racing joins at least one sees the
 * other. Calls block on ZooKeeper: the coordinator makes them on its registry thread.
 */
final class GroupNodes {

    static final String CONSUMERS = "/millrace/consumers";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** What the {@code kafka-group} node says: the protocol type ("" before any member) and when the group became empty (-1: never). */
    record KafkaGroup(String protocolType, long emptySinceMs) {
    }

    private final CuratorFramework curator;
    private final int brokerId;

    GroupNodes(CuratorFramework curator, int brokerId) {
        this.curator = curator;
        this.brokerId = brokerId;
    }

    static String groupPath(String group) {
        return CONSUMERS + "/" + group;
    }

    static String markerPath(String group) {
        return groupPath(group) + "/kafka-members";
    }

    static String kafkaGroupPath(String group) {
        return groupPath(group) + "/kafka-group";
    }

    static String idsPath(String group) {
        return groupPath(group) + "/ids";
    }

    /** Every group with a node in the registry. */
    List<String> groups() throws Exception {
        return children(CONSUMERS);
    }

    /** The consumer ids of the group's live ZooKeeper group consumers. */
    List<String> zookeeperMembers(String group) throws Exception {
        return children(idsPath(group));
    }

    /** Writes the marker for this broker's session; one left by another live session stays. */
    void createMarker(String group) throws Exception {
        byte[] data = json(MAPPER.createObjectNode().put("version", 1).put("broker", brokerId));
        try {
            curator.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(markerPath(group), data);
        } catch (KeeperException.NodeExistsException present) {
            // ours already, or an earlier coordinator's until it drops the group
        }
    }

    /** Whether the marker is there, whoever wrote it. */
    boolean markerExists(String group) throws Exception {
        return curator.checkExists().forPath(markerPath(group)) != null;
    }

    /**
     * Whether another session holds the marker: members on another coordinator. This broker's own
     * marker of a group it holds no member of is merely not yet removed.
     */
    boolean markedElsewhere(String group) throws Exception {
        Stat stat = curator.checkExists().forPath(markerPath(group));
        return stat != null && stat.getEphemeralOwner() != sessionId();
    }

    /** Whether this broker's current session holds the group's marker. */
    boolean holdsMarker(String group) throws Exception {
        Stat stat = curator.checkExists().forPath(markerPath(group));
        return stat != null && stat.getEphemeralOwner() == sessionId();
    }

    /** Deletes the marker if this broker's session wrote it; another coordinator's stays. */
    void deleteMarker(String group) throws Exception {
        Stat stat = curator.checkExists().forPath(markerPath(group));
        if (stat != null && stat.getEphemeralOwner() == sessionId()) {
            try {
                curator.delete().withVersion(stat.getVersion()).forPath(markerPath(group));
            } catch (KeeperException.NoNodeException | KeeperException.BadVersionException gone) {
                // deleted or replaced meanwhile
            }
        }
    }

    private long sessionId() throws Exception {
        return curator.getZookeeperClient().getZooKeeper().getSessionId();
    }

    /** The group's {@code kafka-group} node, or null when it has none (not a Kafka-protocol group). */
    KafkaGroup kafkaGroup(String group) throws Exception {
        byte[] data;
        try {
            data = curator.getData().forPath(kafkaGroupPath(group));
        } catch (KeeperException.NoNodeException absent) {
            return null;
        }
        try {
            JsonNode json = MAPPER.readTree(data);
            return new KafkaGroup(json.path("protocol_type").asText(""), json.path("empty_since").asLong(-1));
        } catch (IOException malformed) {
            return new KafkaGroup("", -1);
        }
    }

    /** Creates the {@code kafka-group} node if missing, for a group with no members yet. */
    void ensureKafkaGroup(String group) throws Exception {
        try {
            curator.create().creatingParentsIfNeeded().forPath(kafkaGroupPath(group), kafkaGroupJson(new KafkaGroup("", -1)));
        } catch (KeeperException.NodeExistsException present) {
            // kept as it is
        }
    }

    /** Rewrites the {@code kafka-group} node only if it exists: a group deleted meanwhile stays deleted. */
    void updateKafkaGroup(String group, KafkaGroup value) throws Exception {
        try {
            curator.setData().forPath(kafkaGroupPath(group), kafkaGroupJson(value));
        } catch (KeeperException.NoNodeException deleted) {
            // the group was deleted since it had members
        }
    }

    /** Records that the group has members of {@code protocolType}, or since when it has had none. */
    void writeKafkaGroup(String group, KafkaGroup value) throws Exception {
        byte[] data = kafkaGroupJson(value);
        try {
            curator.setData().forPath(kafkaGroupPath(group), data);
        } catch (KeeperException.NoNodeException absent) {
            try {
                curator.create().creatingParentsIfNeeded().forPath(kafkaGroupPath(group), data);
            } catch (KeeperException.NodeExistsException raced) {
                curator.setData().forPath(kafkaGroupPath(group), data);
            }
        }
    }

    /**
     * Deletes what the coordinator keeps of a group: offsets, commit metadata and the
     * {@code kafka-group} node, then the group's node if nothing else is left under it.
     */
    void deleteGroup(String group) throws Exception {
        for (String child : List.of("offsets", "offset-metadata", "kafka-group")) {
            deleteTree(groupPath(group) + "/" + child);
        }
        try {
            curator.delete().forPath(groupPath(group));
        } catch (KeeperException.NoNodeException | KeeperException.NotEmptyException inUse) {
            // gone already, or a consumer registered meanwhile
        }
    }

    private void deleteTree(String path) throws Exception {
        try {
            curator.delete().deletingChildrenIfNeeded().forPath(path);
        } catch (KeeperException.NoNodeException absent) {
            // nothing to delete
        }
    }

    private static byte[] kafkaGroupJson(KafkaGroup value) throws IOException {
        ObjectNode json = MAPPER.createObjectNode().put("version", 1).put("protocol_type", value.protocolType())
            .put("empty_since", value.emptySinceMs());
        return json(json);
    }

    private static byte[] json(ObjectNode json) throws IOException {
        return MAPPER.writeValueAsBytes(json);
    }

    private List<String> children(String path) throws Exception {
        try {
            List<String> children = new ArrayList<>(curator.getChildren().forPath(path));
            children.sort(null);
            return children;
        } catch (KeeperException.NoNodeException absent) {
            return List.of();
        }
    }
}
