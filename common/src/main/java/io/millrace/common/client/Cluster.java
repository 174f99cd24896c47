package io.millrace.common.client;

import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.MetadataResponse;
import io.millrace.common.protocol.types.Uuids;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * What clients know of the cluster at one moment: its brokers, and for each known topic its
 * partitions and their leaders. Immutable; {@link Metadata} replaces the whole snapshot when it
 * learns something new, so a reader never sees half an update.
 */
public final class Cluster {

    private static final Cluster EMPTY = new Cluster(Map.of(), Map.of(), Map.of(), Map.of());

    private final Map<Integer, Node> nodes;
    private final Map<String, List<PartitionInfo>> partitionsByTopic;
    private final Map<String, Errors> topicErrors;
    private final Map<String, UUID> topicIds;

    private Cluster(Map<Integer, Node> nodes, Map<String, List<PartitionInfo>> partitionsByTopic,
                    Map<String, Errors> topicErrors, Map<String, UUID> topicIds) {
        this.nodes = nodes;
        this.partitionsByTopic = partitionsByTopic;
        this.topicErrors = topicErrors;
        this.topicIds = topicIds;
    }

    public static Cluster empty() {
        return EMPTY;
    }

    /**
     * This snapshot updated with {@code response}: its brokers replace the known brokers, and each
     * topic it describes without error replaces that topic's entry. Topics it reports as unknown are
     * dropped; other topics keep their last known state.
     */
    public Cluster merge(MetadataResponse response) {
        Map<Integer, Node> newNodes = new HashMap<>();
        for (MetadataResponse.Broker broker : response.brokers()) {
            newNodes.put(broker.nodeId(), new Node(broker.nodeId(), broker.host(), broker.port()));
        }
        Map<String, List<PartitionInfo>> topics = new HashMap<>(relinked(partitionsByTopic, newNodes));
        Map<String, Errors> errors = new HashMap<>(topicErrors);
        Map<String, UUID> ids = new HashMap<>(topicIds);
        for (MetadataResponse.Topic topic : response.topics()) {
            Errors error = topic.error();
            if (topic.name() == null) {
                continue;   // an answer about an id this client never asks for
            }
            if (error == Errors.NONE) {
                topics.put(topic.name(), partitions(topic, newNodes));
                errors.remove(topic.name());
                ids.put(topic.name(), topic.topicId());
            } else {
                errors.put(topic.name(), error);
                if (error == Errors.UNKNOWN_TOPIC_OR_PARTITION || error == Errors.INVALID_TOPIC_EXCEPTION) {
                    topics.remove(topic.name());
                    ids.remove(topic.name());
                }
            }
        }
        return new Cluster(Map.copyOf(newNodes), Map.copyOf(topics), Map.copyOf(errors), Map.copyOf(ids));
    }

    private static Map<String, List<PartitionInfo>> relinked(Map<String, List<PartitionInfo>> topics,
                                                             Map<Integer, Node> nodes) {
        Map<String, List<PartitionInfo>> result = new HashMap<>();
        topics.forEach((topic, partitions) -> {
            List<PartitionInfo> updated = new ArrayList<>(partitions.size());
            for (PartitionInfo p : partitions) {
                Node leader = p.leader() == null ? null : nodes.get(p.leader().id());
                updated.add(new PartitionInfo(topic, p.partition(), leader));
            }
            result.put(topic, List.copyOf(updated));
        });
        return result;
    }

    private static List<PartitionInfo> partitions(MetadataResponse.Topic topic, Map<Integer, Node> nodes) {
        PartitionInfo[] byIndex = new PartitionInfo[topic.partitions().size()];
        List<PartitionInfo> extra = new ArrayList<>();
        for (MetadataResponse.Partition p : topic.partitions()) {
            Node leader = p.leaderId() < 0 ? null : nodes.get(p.leaderId());
            PartitionInfo info = new PartitionInfo(topic.name(), p.partitionIndex(), leader);
            if (p.partitionIndex() >= 0 && p.partitionIndex() < byIndex.length) {
                byIndex[p.partitionIndex()] = info;
            } else {
                extra.add(info);
            }
        }
        List<PartitionInfo> sorted = new ArrayList<>(byIndex.length);
        for (PartitionInfo info : byIndex) {
            if (info != null) {
                sorted.add(info);
            }
        }
        sorted.addAll(extra);
        return List.copyOf(sorted);
    }

    public List<Node> nodes() {
        return List.copyOf(nodes.values());
    }

    /** The broker with {@code id}, or null if this snapshot does not know it. */
    public Node node(int id) {
        return nodes.get(id);
    }

    /** The leader of {@code tp}, or null if the partition is unknown or has no leader. */
    public Node leaderFor(TopicPartition tp) {
        List<PartitionInfo> partitions = partitionsByTopic.get(tp.topic());
        if (partitions == null || tp.partition() < 0 || tp.partition() >= partitions.size()) {
            return null;
        }
        PartitionInfo info = partitions.get(tp.partition());
        return info.partition() == tp.partition() ? info.leader() : null;
    }

    /** The topic's partitions ordered by number, or an empty list for an unknown topic. */
    public List<PartitionInfo> partitionsForTopic(String topic) {
        return partitionsByTopic.getOrDefault(topic, List.of());
    }

    /** The topic's partition count, or -1 for an unknown topic. */
    public int partitionCount(String topic) {
        List<PartitionInfo> partitions = partitionsByTopic.get(topic);
        return partitions == null ? -1 : partitions.size();
    }

    public Set<String> topics() {
        return Collections.unmodifiableSet(partitionsByTopic.keySet());
    }

    /**
     * The id of the topic as the broker last described it, or {@link Uuids#ZERO} when unknown or when the
     * broker gives no ids (before Metadata v10). A different id under the same name is another topic: the
     * old one was deleted and the name created again.
     */
    public UUID topicId(String topic) {
        return topicIds.getOrDefault(topic, Uuids.ZERO);
    }

    /** The error the last Metadata response gave for {@code topic}, or {@link Errors#NONE}. */
    public Errors topicError(String topic) {
        return topicErrors.getOrDefault(topic, Errors.NONE);
    }

    @Override
    public String toString() {
        return "Cluster(brokers=" + nodes.values() + ", topics=" + partitionsByTopic.keySet() + ")";
    }
}
