package io.millrace.broker.group;

import java.util.Map;
import java.util.TreeMap;

/**
 * The groups a coordinator knows, as ListGroups and DescribeGroups see them: those with members
 * here, in memory, and those that exist only in ZooKeeper, read there (so on the registry thread
 * only). A group with committed offsets or a {@code kafka-group} node and no members is Empty, as
 * Kafka lists a group it has only offsets of; a group with ZooKeeper group consumers is not a
 * Kafka-protocol group and is left out.
 */
final class GroupListing {

    /**
     * One group's state, protocol type ("" for a group that never had members) and type: "classic",
     * or "consumer" for a group on the consumer group protocol.
     */
    record Listed(String groupId, GroupState state, String protocolType, String type) {
        Listed(String groupId, GroupState state, String protocolType) {
            this(groupId, state, protocolType, ListGroupsHandler.CLASSIC);
        }
    }

    private final GroupCoordinator coordinator;

    GroupListing(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    /** Every group this broker coordinates, by id. */
    Map<String, Listed> all() throws Exception {
        Map<String, Listed> listed = new TreeMap<>();
        for (ClassicGroup group : coordinator.activeGroups()) {
            GroupDescription d = group.describe();
            listed.put(d.groupId(), new Listed(d.groupId(), d.state(), d.protocolType()));
        }
        for (ConsumerGroup group : coordinator.consumerGroups().active()) {
            GroupDescription d = group.describe();
            listed.put(d.groupId(), new Listed(d.groupId(), d.state(), d.protocolType(), ListGroupsHandler.CONSUMER));
        }
        for (String groupId : coordinator.nodes().groups()) {
            if (!listed.containsKey(groupId) && coordinator.isCoordinatorOf(groupId) && GroupIds.isValid(groupId)) {
                Listed empty = emptyGroup(groupId);
                if (empty != null) {
                    listed.put(groupId, empty);
                }
            }
        }
        return listed;
    }

    /**
     * The group as it is in ZooKeeper when it has no members here: Empty if it has offsets or a
     * {@code kafka-group} node, null if it does not exist or belongs to ZooKeeper group consumers or
     * (the marker) to another coordinator's members.
     */
    Listed emptyGroup(String groupId) throws Exception {
        GroupNodes nodes = coordinator.nodes();
        if (!nodes.zookeeperMembers(groupId).isEmpty() || nodes.markedElsewhere(groupId)) {
            return null;
        }
        GroupNodes.KafkaGroup kafkaGroup = nodes.kafkaGroup(groupId);
        if (kafkaGroup == null && coordinator.offsets().partitionsOf(groupId).isEmpty()
            && coordinator.unwrittenPartitions(groupId).isEmpty()) {
            return null;
        }
        return new Listed(groupId, GroupState.EMPTY, kafkaGroup == null ? "" : kafkaGroup.protocolType());
    }
}
