package io.millrace.broker.cluster;

import io.millrace.common.TopicPartition;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One consistent, immutable view of the cluster as this broker's cache last saw it: live
 * brokers, topics and their assignments, topic configuration overrides, the controller, and
 * pending admin requests. A request handler should take one snapshot and answer the whole
 * request from it. Thread-safe (immutable).
 */
public final class ClusterSnapshot {

    /** What {@link #leader} answers when the partition's broker is not live or the partition is unknown. */
    public static final int NO_LEADER = -1;
    /** What {@link #controllerId} answers when no broker is controller. */
    public static final int NO_CONTROLLER = -1;

    static final ClusterSnapshot EMPTY = new ClusterSnapshot(Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), NO_CONTROLLER,
        Map.of(), Map.of(), Map.of());

    private final SortedMap<Integer, BrokerInfo> brokers;
    private final SortedMap<String, TopicMetadata> topics;
    private final Map<TopicPartition, LeaderAndIsr> partitionStates;
    private final Map<String, Map<String, String>> topicConfigs;
    private final Map<String, Long> topicConfigZxids;
    private final int controllerId;
    private final Map<String, AdminRequest> createRequests;
    private final Map<String, AdminRequest> deleteRequests;
    private final Map<Integer, Boolean> controlledShutdowns;

    ClusterSnapshot(Map<Integer, BrokerInfo> brokers, Map<String, TopicMetadata> topics,
                    Map<TopicPartition, LeaderAndIsr> partitionStates, Map<String, Map<String, String>> topicConfigs, Map<String, Long> topicConfigZxids, int controllerId,
                    Map<String, AdminRequest> createRequests, Map<String, AdminRequest> deleteRequests,
                    Map<Integer, Boolean> controlledShutdowns) {
        this.brokers = Collections.unmodifiableSortedMap(new TreeMap<>(brokers));
        this.topics = Collections.unmodifiableSortedMap(new TreeMap<>(topics));
        this.partitionStates = Map.copyOf(partitionStates);
        this.topicConfigs = Map.copyOf(topicConfigs);
        this.topicConfigZxids = Map.copyOf(topicConfigZxids);
        this.controllerId = controllerId;
        this.createRequests = Map.copyOf(createRequests);
        this.deleteRequests = Map.copyOf(deleteRequests);
        this.controlledShutdowns = Map.copyOf(controlledShutdowns);
    }

    /** The registered brokers, by ascending id. */
    public List<BrokerInfo> liveBrokers() {
        return List.copyOf(brokers.values());
    }

    public Optional<BrokerInfo> broker(int brokerId) {
        return Optional.ofNullable(brokers.get(brokerId));
    }

    public boolean isLive(int brokerId) {
        return brokers.containsKey(brokerId);
    }

    /** The topic names, sorted. */
    public SortedSet<String> topics() {
        return Collections.unmodifiableSortedSet(new TreeSet<>(topics.keySet()));
    }

    public boolean hasTopic(String topic) {
        return topics.containsKey(topic);
    }

    public Optional<TopicMetadata> topic(String topic) {
        return Optional.ofNullable(topics.get(topic));
    }

    /** The topic whose current incarnation has {@code topicId}, if any (a linear scan: topic counts are small). */
    public Optional<TopicMetadata> topicById(java.util.UUID topicId) {
        return topics.values().stream().filter(t -> t.topicId().equals(topicId)).findFirst();
    }

    /** The number of partitions of {@code topic}, or 0 when there is no such topic. */
    public int partitionCount(String topic) {
        TopicMetadata metadata = topics.get(topic);
        return metadata == null ? 0 : metadata.partitionCount();
    }

    /**
     * The partition's replicas and leadership, or empty when the topic has no such partition. A
     * partition without a state znode reads as {@link PartitionState#initial}: its first replica
     * leading in epoch 0.
     */
    public Optional<PartitionState> partitionState(String topic, int partition) {
        TopicMetadata metadata = topics.get(topic);
        List<Integer> replicas = metadata == null ? List.of() : metadata.replicas(partition);
        if (replicas.isEmpty()) {
            return Optional.empty();
        }
        LeaderAndIsr state = partitionStates.get(new TopicPartition(topic, partition));
        return Optional.of(state == null ? PartitionState.initial(replicas) : state.withReplicas(replicas));
    }

    /**
     * The id of the broker leading the partition, or {@link #NO_LEADER} when the leader its state
     * names is not live, the partition is offline, or it does not exist (check {@link #partitionCount}
     * to tell these apart).
     */
    public int leader(String topic, int partition) {
        int leader = partitionState(topic, partition).map(PartitionState::leader).orElse(NO_LEADER);
        return leader != NO_LEADER && brokers.containsKey(leader) ? leader : NO_LEADER;
    }

    /** The partitions whose state names {@code brokerId} as leader (live or not). */
    public SortedSet<TopicPartition> partitionsLedBy(int brokerId) {
        SortedSet<TopicPartition> led = new TreeSet<>();
        forEachPartition((tp, state) -> {
            if (state.leader() == brokerId) {
                led.add(tp);
            }
        });
        return Collections.unmodifiableSortedSet(led);
    }

    /** Calls {@code action} with every partition of every topic and its state, topics and partitions in order. */
    public void forEachPartition(java.util.function.BiConsumer<TopicPartition, PartitionState> action) {
        for (TopicMetadata topic : topics.values()) {
            for (int partition : topic.replicas().keySet()) {
                action.accept(new TopicPartition(topic.name(), partition), partitionState(topic.name(), partition).orElseThrow());
            }
        }
    }

    /** The partitions moving to new replica lists, topics and partitions in order. */
    public SortedMap<TopicPartition, Reassignment> reassignments() {
        SortedMap<TopicPartition, Reassignment> all = new TreeMap<>();
        for (TopicMetadata topic : topics.values()) {
            topic.reassignments().forEach((partition, move) -> all.put(new TopicPartition(topic.name(), partition), move));
        }
        return all;
    }

    /** Brokers that asked for a controlled shutdown and are still registered for it; none leads anything new. */
    public java.util.Set<Integer> shuttingDown() {
        return controlledShutdowns.keySet();
    }

    /** Whether the controller has carried out {@code brokerId}'s controlled shutdown request. */
    boolean controlledShutdownDone(int brokerId) {
        return Boolean.TRUE.equals(controlledShutdowns.get(brokerId));
    }

    /** Whether {@code brokerId} asked for a controlled shutdown the controller has not yet carried out. */
    boolean controlledShutdownPending(int brokerId) {
        return Boolean.FALSE.equals(controlledShutdowns.get(brokerId));
    }

    /** The live broker leading the partition, with its address, if any. */
    public Optional<BrokerInfo> leaderBroker(String topic, int partition) {
        return broker(leader(topic, partition));
    }

    /** The controller's broker id, or {@link #NO_CONTROLLER}. */
    public int controllerId() {
        return controllerId;
    }

    /** The topic's configuration overrides; empty when it has none (or does not exist). */
    public Map<String, String> topicConfig(String topic) {
        return topicConfigs.getOrDefault(topic, Map.of());
    }

    /** The zxid of the last write of the topic's configuration znode; -1 when there is none. */
    long topicConfigZxid(String topic) {
        return topicConfigZxids.getOrDefault(topic, -1L);
    }

    /**
     * Every broker id the cluster is known to have: the live brokers and every broker a partition is
     * assigned to, live or not. More than are live when brokers are down.
     */
    public java.util.Set<Integer> knownBrokers() {
        java.util.Set<Integer> known = new TreeSet<>(brokers.keySet());
        for (TopicMetadata topic : topics.values()) {
            topic.replicas().values().forEach(known::addAll);
        }
        return known;
    }

    /** The partitions with a replica on {@code brokerId} (leader or follower), whether it is live or not. */
    public SortedSet<TopicPartition> partitionsAssignedTo(int brokerId) {
        SortedSet<TopicPartition> mine = new TreeSet<>();
        for (TopicMetadata topic : topics.values()) {
            topic.replicas().forEach((partition, replicas) -> {
                if (replicas.contains(brokerId)) {
                    mine.add(new TopicPartition(topic.name(), partition));
                }
            });
        }
        return Collections.unmodifiableSortedSet(mine);
    }

    AdminRequest createRequest(String topic) {
        return createRequests.get(topic);
    }

    AdminRequest deleteRequest(String topic) {
        return deleteRequests.get(topic);
    }

    /** Requests the controller has not yet answered. */
    List<AdminRequest> pendingRequests() {
        List<AdminRequest> pending = new ArrayList<>();
        createRequests.values().stream().filter(AdminRequest::isPending).forEach(pending::add);
        deleteRequests.values().stream().filter(AdminRequest::isPending).forEach(pending::add);
        return pending;
    }

    @Override
    public String toString() {
        return "ClusterSnapshot(brokers=" + brokers.keySet() + ", topics=" + topics.keySet() + ", controller=" + controllerId
            + ", pending=" + pendingRequests().size() + ")";
    }
}
