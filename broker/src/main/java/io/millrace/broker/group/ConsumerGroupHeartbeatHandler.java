package io.millrace.broker.group;

import io.millrace.broker.cluster.ClusterSnapshot;
import io.millrace.broker.cluster.MetadataCache;
import io.millrace.broker.cluster.TopicMetadata;
import io.millrace.broker.server.ApiHandler;
import io.millrace.broker.server.Request;
import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.ConsumerGroupHeartbeatRequest;
import io.millrace.common.protocol.message.ConsumerGroupHeartbeatResponse;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the consumer group protocol of KIP-848 ({@code group.protocol=consumer} in Kafka's Java
 * client and librdkafka): checks the request as Kafka does, then hands it to the group (see
 * {@link ConsumerGroup}). Partitions travel by topic id both ways. A group id in use by a classic
 * group with members, or by ZooKeeper group consumers, is answered GROUP_ID_NOT_FOUND with the reason.
 */
public final class ConsumerGroupHeartbeatHandler implements ApiHandler {

    private static final Logger LOG = LoggerFactory.getLogger(ConsumerGroupHeartbeatHandler.class);

    private final GroupCoordinator coordinator;
    private final MetadataCache metadata;

    public ConsumerGroupHeartbeatHandler(GroupCoordinator coordinator, MetadataCache metadata) {
        this.coordinator = coordinator;
        this.metadata = metadata;
    }

    @Override
    public void handle(Request request) {
        ConsumerGroupHeartbeatRequest body = request.body();
        ConsumerGroupHeartbeatResponse invalid = validate(body);
        if (invalid != null) {
            request.respond(invalid);
            return;
        }
        String groupId = body.groupId();
        if (!coordinator.isCoordinatorOf(groupId)) {
            request.respond(ConsumerGroupHeartbeatResponse.error(Errors.NOT_COORDINATOR, null));
            return;
        }
        if (coordinator.existingGroup(groupId).filter(g -> !g.isIdle()).isPresent()) {
            request.respond(ConsumerGroupHeartbeatResponse.error(Errors.GROUP_ID_NOT_FOUND,
                "Group " + groupId + " is a classic group with members, not a consumer group"));
            return;
        }
        if (body.memberEpoch() == ConsumerGroupHeartbeatRequest.JOIN_EPOCH
                && coordinator.consumerGroups().active(groupId).isEmpty()) {
            // a first member: the group id must not be in use by ZooKeeper group consumers
            coordinator.claimForKafka(groupId).whenComplete((conflict, failure) -> {
                if (failure != null) {
                    LOG.warn("Could not check the kind of group {}", groupId, failure);
                    request.respond(ConsumerGroupHeartbeatResponse.error(Errors.COORDINATOR_NOT_AVAILABLE, null));
                } else if (conflict != null) {
                    request.respond(ConsumerGroupHeartbeatResponse.error(Errors.GROUP_ID_NOT_FOUND, conflict));
                } else {
                    heartbeat(request, body);
                }
            });
            return;
        }
        heartbeat(request, body);
    }

    private void heartbeat(Request request, ConsumerGroupHeartbeatRequest body) {
        ClusterSnapshot snapshot = metadata.snapshot();
        String clientId = request.header().clientId() == null ? "" : request.header().clientId();
        Set<TopicPartition> owned = owned(body.topicPartitions(), snapshot);
        ConsumerGroup.Answer answer = coordinator.consumerGroups().call(body.groupId(), group -> group.heartbeat(body, owned,
            clientId, JoinGroupHandler.clientHost(request), catalog(snapshot), coordinator.nowMs()));
        request.respond(new ConsumerGroupHeartbeatResponse(0, answer.error().code(), answer.message(), answer.memberId(),
            answer.epoch(), coordinator.config().consumerHeartbeatIntervalMs(), assignment(answer.assignment(), snapshot)));
    }

    /** Kafka's checks of a heartbeat's fields, before any group is looked at; null when they pass. */
    private static ConsumerGroupHeartbeatResponse validate(ConsumerGroupHeartbeatRequest body) {
        if (!GroupIds.isValid(body.groupId())) {
            return ConsumerGroupHeartbeatResponse.error(Errors.INVALID_GROUP_ID, "GroupId can't be empty");
        }
        int epoch = body.memberEpoch();
        if (epoch < ConsumerGroupHeartbeatRequest.STATIC_LEAVE_EPOCH) {
            return invalid("MemberEpoch is " + epoch + "; it must be 0 to join, -1 or -2 to leave, or the current epoch");
        }
        if (epoch != ConsumerGroupHeartbeatRequest.JOIN_EPOCH && body.memberId().isEmpty()) {
            return invalid("MemberId can't be empty");
        }
        if (epoch == ConsumerGroupHeartbeatRequest.STATIC_LEAVE_EPOCH && body.instanceId() == null) {
            return invalid("InstanceId can't be null when MemberEpoch is -2");
        }
        if (epoch == ConsumerGroupHeartbeatRequest.JOIN_EPOCH && body.subscribedTopicNames() == null
                && body.subscribedTopicRegex() == null) {
            return invalid("SubscribedTopicNames or SubscribedTopicRegex must be set in the first request");
        }
        if (body.serverAssignor() != null && ServerAssignor.named(body.serverAssignor()).isEmpty()) {
            return ConsumerGroupHeartbeatResponse.error(Errors.UNSUPPORTED_ASSIGNOR, "ServerAssignor "
                + body.serverAssignor() + " is not one of " + ServerAssignor.NAMES);
        }
        if (body.subscribedTopicRegex() != null) {
            try {
                Pattern.compile(body.subscribedTopicRegex());
            } catch (PatternSyntaxException e) {
                return ConsumerGroupHeartbeatResponse.error(Errors.INVALID_REGULAR_EXPRESSION,
                    "SubscribedTopicRegex " + body.subscribedTopicRegex() + " is not valid: " + e.getDescription());
            }
        }
        return null;
    }

    private static ConsumerGroupHeartbeatResponse invalid(String message) {
        return ConsumerGroupHeartbeatResponse.error(Errors.INVALID_REQUEST, message);
    }

    /** The partitions the member reports, by name; those of topic ids no longer known are not anyone's. */
    private static Set<TopicPartition> owned(List<ConsumerGroupHeartbeatRequest.TopicPartitions> reported,
                                             ClusterSnapshot snapshot) {
        if (reported == null) {
            return null;
        }
        Set<TopicPartition> owned = new HashSet<>();
        for (ConsumerGroupHeartbeatRequest.TopicPartitions tp : reported) {
            snapshot.topicById(tp.topicId()).ifPresent(topic ->
                tp.partitions().forEach(p -> owned.add(new TopicPartition(topic.name(), p))));
        }
        return owned;
    }

    private static List<ConsumerGroupHeartbeatRequest.TopicPartitions> assignment(Set<TopicPartition> assigned,
                                                                                  ClusterSnapshot snapshot) {
        if (assigned == null) {
            return null;
        }
        Map<String, List<Integer>> byTopic = new TreeMap<>();
        assigned.forEach(tp -> byTopic.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(tp.partition()));
        List<ConsumerGroupHeartbeatRequest.TopicPartitions> topics = new ArrayList<>();
        byTopic.forEach((name, partitions) -> snapshot.topic(name).map(TopicMetadata::topicId).ifPresent(id ->
            topics.add(new ConsumerGroupHeartbeatRequest.TopicPartitions(id, partitions.stream().sorted().toList()))));
        return topics;
    }

    private static TopicCatalog catalog(ClusterSnapshot snapshot) {
        return new TopicCatalog() {
            @Override
            public Collection<String> names() {
                return snapshot.topics().stream().filter(t -> !t.startsWith("__")).toList();
            }

            @Override
            public int partitionCount(String topic) {
                return snapshot.hasTopic(topic) ? snapshot.partitionCount(topic) : 0;
            }
        };
    }
}
