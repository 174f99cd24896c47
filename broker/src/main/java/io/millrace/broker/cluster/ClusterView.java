package io.millrace.broker.cluster;

import io.millrace.broker.cluster.ClusterJson.MalformedZNodeException;
import io.millrace.common.TopicPartition;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mutable state behind {@link MetadataCache}: znode events go in, immutable
 * {@link ClusterSnapshot}s come out. Znodes whose data does not parse are logged and left out,
 * so one bad znode cannot take the view down.
 *
 * <p>Not thread-safe: the cache calls it from Curator's single cache-event thread only.
 */
final class ClusterView {

    private static final Logger log = LoggerFactory.getLogger(ClusterView.class);

    private final Map<Integer, BrokerInfo> brokers = new HashMap<>();
    private final Map<String, TopicMetadata> topics = new HashMap<>();
    /** The partitions' state znodes; a partition without one is not here. */
    private final Map<TopicPartition, LeaderAndIsr> partitionStates = new HashMap<>();
    private final Map<String, Map<String, String>> topicConfigs = new HashMap<>();
    /** The zxid of each topic config znode's last write, for a writer waiting to see its own change. */
    private final Map<String, Long> topicConfigZxids = new HashMap<>();
    /** LeaderLatch candidates: sequence number → broker id. */
    private final TreeMap<Long, Integer> controllerCandidates = new TreeMap<>();
    private final Map<String, AdminRequest> createRequests = new HashMap<>();
    private final Map<String, AdminRequest> deleteRequests = new HashMap<>();
    /** Brokers asking for a controlled shutdown → whether the controller has carried it out. */
    private final Map<Integer, Boolean> controlledShutdowns = new HashMap<>();

    /** Applies a created or changed znode; returns whether the view changed. */
    boolean put(ChildData node) {
        try {
            return apply(node.getPath(), node);
        } catch (MalformedZNodeException e) {
            log.warn("Ignoring znode {}: {}", node.getPath(), e.getMessage());
            return remove(node.getPath());
        }
    }

    /** Applies a deleted znode; returns whether the view changed. */
    boolean remove(String path) {
        return apply(path, null);
    }

    ClusterSnapshot snapshot() {
        int controller = controllerCandidates.isEmpty() ? ClusterSnapshot.NO_CONTROLLER : controllerCandidates.firstEntry().getValue();
        return new ClusterSnapshot(brokers, topics, partitionStates, topicConfigs, topicConfigZxids, controller, createRequests,
            deleteRequests, controlledShutdowns);
    }

    private boolean apply(String path, ChildData node) {
        OptionalInt brokerId = ClusterPaths.brokerIdOf(path);
        if (brokerId.isPresent()) {
            int id = brokerId.getAsInt();
            return update(brokers, id, node == null ? null : ClusterJson.parseBroker(id, node.getData()));
        }
        String name;
        if ((name = ClusterPaths.childOf(ClusterPaths.TOPICS, path)) != null) {
            return update(topics, name, node == null ? null
                : new TopicMetadata(name, ClusterJson.parseTopic(node.getData()), ClusterJson.parseReassignments(node.getData()),
                    node.getStat().getCzxid()));
        }
        Optional<TopicPartition> partition = ClusterPaths.partitionOfState(path);
        if (partition.isPresent()) {
            return update(partitionStates, partition.get(), node == null ? null
                : ClusterJson.parsePartitionState(node.getData(), node.getStat().getVersion()));
        }
        if ((name = ClusterPaths.childOf(ClusterPaths.TOPIC_CONFIGS, path)) != null) {
            boolean changed = update(topicConfigs, name, node == null ? null : ClusterJson.parseTopicConfig(node.getData()));
            return update(topicConfigZxids, name, node == null ? null : node.getStat().getMzxid()) | changed;
        }
        if ((name = ClusterPaths.childOf(ClusterPaths.CONTROLLER, path)) != null) {
            return applyCandidate(name, node);
        }
        if ((name = ClusterPaths.childOf(ClusterPaths.CREATE_TOPIC_REQUESTS, path)) != null) {
            return update(createRequests, name, node == null ? null : request(AdminRequest.Kind.CREATE, name, node));
        }
        if ((name = ClusterPaths.childOf(ClusterPaths.DELETE_TOPIC_REQUESTS, path)) != null) {
            return update(deleteRequests, name, node == null ? null : request(AdminRequest.Kind.DELETE, name, node));
        }
        if ((name = ClusterPaths.childOf(ClusterPaths.CONTROLLED_SHUTDOWN_REQUESTS, path)) != null) {
            return applyControlledShutdown(name, node);
        }
        if ((name = ClusterPaths.childOf(ClusterPaths.CREATE_PARTITIONS_REQUESTS, path)) != null) {
            // Kept with the creations under its path, not its topic name: the view only needs them
            // to tell the controller that requests are pending.
            return update(createRequests, path, node == null ? null : request(AdminRequest.Kind.CREATE_PARTITIONS, name, node));
        }
        return false;
    }

    private boolean applyCandidate(String nodeName, ChildData node) {
        long sequence = ClusterPaths.latchSequence(nodeName);
        if (sequence < 0) {
            return false;
        }
        if (node == null) {
            return controllerCandidates.remove(sequence) != null;
        }
        try {
            return update(controllerCandidates, sequence, Integer.parseInt(new String(node.getData(), StandardCharsets.UTF_8)));
        } catch (NumberFormatException | NullPointerException e) {
            throw new MalformedZNodeException("Controller candidate data is not a broker id");
        }
    }

    private boolean applyControlledShutdown(String name, ChildData node) {
        int id;
        try {
            id = Integer.parseInt(name);
        } catch (NumberFormatException e) {
            return false;
        }
        return update(controlledShutdowns, id, node == null ? null : ClusterJson.parseControlledShutdownDone(node.getData()));
    }

    private static AdminRequest request(AdminRequest.Kind kind, String topic, ChildData node) {
        return ClusterJson.parseRequest(kind, topic, node.getData(), node.getStat().getCzxid(), node.getStat().getVersion());
    }

    private static <K, V> boolean update(Map<K, V> map, K key, V value) {
        V previous = value == null ? map.remove(key) : map.put(key, value);
        return value == null ? previous != null : !value.equals(previous);
    }
}
