package io.millrace.broker.group;

import io.millrace.broker.server.ApiHandler;
import io.millrace.broker.server.Request;
import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.OffsetDeleteRequest;
import io.millrace.common.protocol.message.OffsetDeleteResponse;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes a group's committed offsets of some partitions, as Kafka's OffsetDelete: with the group
 * empty, all of them; while a consumer group has members, those of topics no member subscribes to
 * (the others get GROUP_SUBSCRIBED_TO_TOPIC); a group with members of another protocol type, or
 * ZooKeeper group consumers, is NON_EMPTY_GROUP and one that does not exist GROUP_ID_NOT_FOUND.
 */
public final class OffsetDeleteHandler implements ApiHandler {

    private static final Logger LOG = LoggerFactory.getLogger(OffsetDeleteHandler.class);

    private final GroupCoordinator coordinator;
    private final GroupListing listing;

    public OffsetDeleteHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
        this.listing = new GroupListing(coordinator);
    }

    @Override
    public void handle(Request request) {
        OffsetDeleteRequest body = request.body();
        String groupId = body.groupId();
        if (!GroupIds.isValid(groupId)) {
            request.respond(failed(Errors.INVALID_GROUP_ID));
            return;
        }
        if (!coordinator.isCoordinatorOf(groupId)) {
            request.respond(failed(Errors.NOT_COORDINATOR));
            return;
        }
        ClassicGroup group = coordinator.existingGroup(groupId).filter(g -> !g.isIdle()).orElse(null);
        Set<String> subscribed;
        java.util.Optional<ConsumerGroup> consumerGroup = coordinator.consumerGroups().active(groupId);
        if (consumerGroup.isPresent()) {
            subscribed = consumerGroup.get().subscribedTopics();
        } else if (group == null) {
            subscribed = null;
        } else if (!SubscribedTopics.CONSUMER_PROTOCOL_TYPE.equals(group.describe().protocolType())) {
            request.respond(failed(Errors.NON_EMPTY_GROUP));
            return;
        } else {
            subscribed = new HashSet<>();
            for (ByteBuffer metadata : group.memberMetadata()) {
                subscribed.addAll(SubscribedTopics.parse(metadata));
            }
        }
        coordinator.onRegistryThread(() -> delete(body, subscribed)).whenComplete((answer, failure) -> {
            if (failure != null) {
                LOG.warn("Could not delete offsets of group {}", groupId, failure);
                request.respond(failed(Errors.COORDINATOR_NOT_AVAILABLE));
            } else {
                request.respond(answer);
            }
        });
    }

    /** Registry thread; {@code subscribed} is null when the group has no members here. */
    private OffsetDeleteResponse delete(OffsetDeleteRequest body, Set<String> subscribed) throws Exception {
        String groupId = body.groupId();
        coordinator.writeCommitsNow(groupId);
        if (subscribed == null) {
            GroupNodes nodes = coordinator.nodes();
            if (!nodes.zookeeperMembers(groupId).isEmpty() || nodes.markedElsewhere(groupId)) {
                return failed(Errors.NON_EMPTY_GROUP);
            }
            if (listing.emptyGroup(groupId) == null) {
                return failed(Errors.GROUP_ID_NOT_FOUND);
            }
        }
        List<TopicPartition> deleted = new ArrayList<>();
        List<OffsetDeleteResponse.Topic> topics = new ArrayList<>();
        for (OffsetDeleteRequest.Topic t : body.topics()) {
            boolean inUse = subscribed != null && subscribed.contains(t.name());
            List<OffsetDeleteResponse.Partition> partitions = new ArrayList<>();
            for (int p : t.partitions()) {
                partitions.add(new OffsetDeleteResponse.Partition(p,
                    (inUse ? Errors.GROUP_SUBSCRIBED_TO_TOPIC : Errors.NONE).code()));
                if (!inUse) {
                    deleted.add(new TopicPartition(t.name(), p));
                }
            }
            topics.add(new OffsetDeleteResponse.Topic(t.name(), partitions));
        }
        coordinator.offsets().delete(groupId, deleted);
        return new OffsetDeleteResponse(Errors.NONE.code(), 0, topics);
    }

    private static OffsetDeleteResponse failed(Errors error) {
        return new OffsetDeleteResponse(error.code(), 0, List.of());
    }
}
