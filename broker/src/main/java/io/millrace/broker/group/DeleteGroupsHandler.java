package io.millrace.broker.group;

import io.millrace.broker.server.ApiHandler;
import io.millrace.broker.server.Request;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.DeleteGroupsRequest;
import io.millrace.common.protocol.message.DeleteGroupsResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes empty groups with their committed offsets, as Kafka's DeleteGroups: a group with members
 * (Kafka's, or ZooKeeper group consumers) is NON_EMPTY_GROUP, one without offsets or members
 * GROUP_ID_NOT_FOUND. An idle group is first dropped from memory (a join still holding it is told
 * to retry), then its nodes are deleted on the registry thread.
 */
public final class DeleteGroupsHandler implements ApiHandler {

    private static final Logger LOG = LoggerFactory.getLogger(DeleteGroupsHandler.class);

    private final GroupCoordinator coordinator;
    private final GroupListing listing;

    public DeleteGroupsHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
        this.listing = new GroupListing(coordinator);
    }

    @Override
    public void handle(Request request) {
        DeleteGroupsRequest body = request.body();
        List<CompletableFuture<DeleteGroupsResponse.Result>> results = new ArrayList<>();
        for (String groupId : body.groupsNames()) {
            results.add(delete(groupId).thenApply(error -> new DeleteGroupsResponse.Result(groupId, error.code())));
        }
        CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).thenRun(() ->
            request.respond(new DeleteGroupsResponse(0, results.stream().map(CompletableFuture::join).toList())));
    }

    private CompletableFuture<Errors> delete(String groupId) {
        if (!GroupIds.isValid(groupId)) {
            return CompletableFuture.completedFuture(Errors.INVALID_GROUP_ID);
        }
        if (!coordinator.isCoordinatorOf(groupId)) {
            return CompletableFuture.completedFuture(Errors.NOT_COORDINATOR);
        }
        if (!coordinator.retireIfIdle(groupId)) {
            return CompletableFuture.completedFuture(Errors.NON_EMPTY_GROUP);
        }
        return coordinator.onRegistryThread(() -> deleteNodes(groupId)).exceptionally(failure -> {
            LOG.warn("Could not delete group {}", groupId, failure);
            return Errors.COORDINATOR_NOT_AVAILABLE;
        });
    }

    private Errors deleteNodes(String groupId) throws Exception {
        coordinator.writeCommitsNow(groupId);
        GroupNodes nodes = coordinator.nodes();
        if (!nodes.zookeeperMembers(groupId).isEmpty() || nodes.markedElsewhere(groupId)) {
            return Errors.NON_EMPTY_GROUP;
        }
        if (listing.emptyGroup(groupId) == null) {
            return Errors.GROUP_ID_NOT_FOUND;
        }
        nodes.deleteMarker(groupId); // ours, left by members gone a moment ago
        nodes.deleteGroup(groupId);
        coordinator.forgetKafkaGroup(groupId);
        LOG.info("Deleted group {} and its committed offsets", groupId);
        return Errors.NONE;
    }
}
