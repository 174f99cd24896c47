package io.millrace.broker.group;

import io.millrace.broker.server.ApiHandler;
import io.millrace.broker.server.Request;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.DescribeGroupsRequest;
import io.millrace.common.protocol.message.DescribeGroupsResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Describes groups: state, protocol type, protocol and members (client id and host, metadata and
 * assignment while Stable, group instance id from version 4). As in Kafka, a group the coordinator
 * does not know is answered Dead with no error; one that has only offsets is Empty. A group of
 * ZooKeeper group consumers gets INCONSISTENT_GROUP_PROTOCOL, with a message from version 6.
 */
public final class DescribeGroupsHandler implements ApiHandler {

    private static final Logger LOG = LoggerFactory.getLogger(DescribeGroupsHandler.class);
    private static final int NOT_COMPUTED = DescribeGroupsResponse.UNKNOWN_AUTHORIZED_OPERATIONS;

    private final GroupCoordinator coordinator;
    private final GroupListing listing;

    public DescribeGroupsHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
        this.listing = new GroupListing(coordinator);
    }

    @Override
    public void handle(Request request) {
        DescribeGroupsRequest body = request.body();
        List<CompletableFuture<DescribeGroupsResponse.Group>> answers = new ArrayList<>();
        for (String groupId : body.groups()) {
            answers.add(describe(groupId));
        }
        CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenRun(() ->
            request.respond(new DescribeGroupsResponse(0, answers.stream().map(CompletableFuture::join).toList())));
    }

    /** Never completes exceptionally: a failure becomes the group's error. */
    private CompletableFuture<DescribeGroupsResponse.Group> describe(String groupId) {
        if (!GroupIds.isValid(groupId)) {
            return CompletableFuture.completedFuture(error(groupId, Errors.INVALID_GROUP_ID, null));
        }
        if (!coordinator.isCoordinatorOf(groupId)) {
            return CompletableFuture.completedFuture(error(groupId, Errors.NOT_COORDINATOR, null));
        }
        java.util.Optional<ConsumerGroup> consumerGroup = coordinator.consumerGroups().active(groupId);
        if (consumerGroup.isPresent()) {
            return CompletableFuture.completedFuture(answer(consumerGroup.get().describe()));
        }
        ClassicGroup group = coordinator.existingGroup(groupId).filter(g -> !g.isIdle()).orElse(null);
        if (group != null) {
            return CompletableFuture.completedFuture(answer(group.describe()));
        }
        return coordinator.onRegistryThread(() -> fromZooKeeper(groupId)).handle((answer, failure) -> {
            if (failure != null) {
                LOG.warn("Could not describe group {}", groupId, failure);
                return error(groupId, Errors.COORDINATOR_NOT_AVAILABLE, null);
            }
            return answer;
        });
    }

    private DescribeGroupsResponse.Group fromZooKeeper(String groupId) throws Exception {
        List<String> zookeeperMembers = coordinator.nodes().zookeeperMembers(groupId);
        if (!zookeeperMembers.isEmpty()) {
            return error(groupId, Errors.INCONSISTENT_GROUP_PROTOCOL, "Group " + groupId + " has members of "
                + "Millrace's ZooKeeper group consumer " + zookeeperMembers + ", not of Kafka's protocol; "
                + "bin/millrace consumer-groups --describe shows them");
        }
        GroupListing.Listed empty = listing.emptyGroup(groupId);
        GroupState state = empty == null ? GroupState.DEAD : GroupState.EMPTY;
        String protocolType = empty == null ? "" : empty.protocolType();
        return new DescribeGroupsResponse.Group(Errors.NONE.code(), null, groupId, state.kafkaName(), protocolType, "",
            List.of(), NOT_COMPUTED);
    }

    private static DescribeGroupsResponse.Group answer(GroupDescription d) {
        List<DescribeGroupsResponse.Member> members = d.members().stream().map(m -> new DescribeGroupsResponse.Member(
            m.memberId(), m.groupInstanceId(), m.clientId(), m.clientHost(), m.metadata(), m.assignment())).toList();
        return new DescribeGroupsResponse.Group(Errors.NONE.code(), null, d.groupId(), d.state().kafkaName(),
            d.protocolType(), d.protocolName(), members, NOT_COMPUTED);
    }

    /** Kafka's answer for a group it cannot describe: the error, and no state, protocol or members. */
    private static DescribeGroupsResponse.Group error(String groupId, Errors error, String message) {
        return new DescribeGroupsResponse.Group(error.code(), message, groupId, "", "", "",
            List.of(), NOT_COMPUTED);
    }
}
