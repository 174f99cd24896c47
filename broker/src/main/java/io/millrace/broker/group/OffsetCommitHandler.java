package io.millrace.broker.group;

import io.millrace.broker.cluster.MetadataCache;
import io.millrace.broker.server.ApiHandler;
import io.millrace.broker.server.Request;
import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.OffsetCommitRequest;
import io.millrace.common.protocol.message.OffsetCommitResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends committed offsets to the group's partition of the offsets topic and answers once it is
 * replicated ({@link OffsetJournal}; the offset registry gets them moments later), after
 * fencing by generation (see {@link ClassicGroup#checkCommit}). Partitions of unknown topics get
 * UNKNOWN_TOPIC_OR_PARTITION and metadata over {@value CommitPartitions#MAX_METADATA_CHARS} characters
 * OFFSET_METADATA_TOO_LARGE (Kafka's {@code offset.metadata.max.bytes}); the others are written
 * together. The retention time of versions 2-4 is ignored, as Kafka 2.1+ ignores it: offsets
 * expire by the broker's {@code offsets.retention.minutes} (see {@link OffsetRetention}). The first
 * commit of a group through this broker also writes its {@code kafka-group} node (see
 * {@link GroupNodes}), which makes the group's offsets subject to retention. A commit from outside
 * any group (generation -1) to a group of ZooKeeper group consumers gets UNKNOWN_MEMBER_ID, Kafka's
 * answer for a group that has members.
 */
public final class OffsetCommitHandler implements ApiHandler {

    private static final Logger LOG = LoggerFactory.getLogger(OffsetCommitHandler.class);

    private final GroupCoordinator coordinator;
    private final MetadataCache metadata;

    public OffsetCommitHandler(GroupCoordinator coordinator, MetadataCache metadata) {
        this.coordinator = coordinator;
        this.metadata = metadata;
    }

    @Override
    public void handle(Request request) {
        OffsetCommitRequest body = request.body();
        Errors groupError = checkGroup(body);
        if (groupError != Errors.NONE) {
            request.respond(answer(body, tp -> groupError));
            return;
        }
        CommitPartitions commits = new CommitPartitions(metadata);
        for (OffsetCommitRequest.Topic t : body.topics()) {
            for (OffsetCommitRequest.Partition p : t.partitions()) {
                commits.add(t.name(), p.partitionIndex(), p.committedOffset(), p.committedMetadata());
            }
        }
        coordinator.commit(body.groupId(), commits.writes(), body.generationId() < 0).whenComplete((ok, failure) -> {
            Errors result = failure == null ? Errors.NONE : appendError(body.groupId(), failure);
            request.respond(answer(body, tp -> commits.answer(tp, result)));
        });
    }

    /**
     * What a commit that could not be appended is answered, as Kafka maps its append errors: the
     * partition gone to another broker NOT_COORDINATOR, too few in-sync replicas
     * COORDINATOR_NOT_AVAILABLE (both send the client to find the coordinator again).
     */
    private static Errors appendError(String groupId, Throwable failure) {
        Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
            ? failure.getCause() : failure;
        if (cause.getCause() instanceof GroupCoordinator.ZooKeeperMembersException refused) {
            cause = refused;
        }
        if (cause instanceof GroupCoordinator.ZooKeeperMembersException refused) {
            // Kafka's answer to a commit from outside a group that has members
            LOG.warn("OffsetCommit refused: {}", refused.getMessage());
            return Errors.UNKNOWN_MEMBER_ID;
        }
        Errors error = cause instanceof io.millrace.common.protocol.ApiException api ? api.error() : Errors.UNKNOWN_SERVER_ERROR;
        switch (error) {
            case NOT_COORDINATOR, NOT_LEADER_OR_FOLLOWER, KAFKA_STORAGE_ERROR:
                return Errors.NOT_COORDINATOR;
            case REQUEST_TIMED_OUT:
                return Errors.REQUEST_TIMED_OUT;
            case MESSAGE_TOO_LARGE, RECORD_LIST_TOO_LARGE:
                return Errors.INVALID_COMMIT_OFFSET_SIZE;
            default:
                LOG.warn("Could not commit offsets of group {}", groupId, cause);
                return Errors.COORDINATOR_NOT_AVAILABLE;
        }
    }

    private Errors checkGroup(OffsetCommitRequest body) {
        if (!GroupIds.isValid(body.groupId())) {
            return Errors.INVALID_GROUP_ID;
        }
        if (!coordinator.isCoordinatorOf(body.groupId())) {
            return Errors.NOT_COORDINATOR;
        }
        Optional<ConsumerGroup> consumerGroup = coordinator.consumerGroups().active(body.groupId());
        if (consumerGroup.isPresent()) {
            // a member of a consumer-protocol group commits with its member epoch in the generation's place
            return consumerGroup.get().checkCommit(body.memberId(), body.generationId());
        }
        Optional<ClassicGroup> group = coordinator.existingGroup(body.groupId());
        if (group.isEmpty()) {
            // no live group here: only a consumer outside any group (generation -1) may commit
            return body.generationId() < 0 ? Errors.NONE : Errors.ILLEGAL_GENERATION;
        }
        String memberId = body.memberId() == null ? "" : body.memberId();
        return group.get().checkCommit(memberId, body.groupInstanceId(), body.generationId(), coordinator.nowMs());
    }

    private static OffsetCommitResponse answer(OffsetCommitRequest body, java.util.function.Function<TopicPartition, Errors> error) {
        List<OffsetCommitResponse.Topic> topics = new ArrayList<>();
        for (OffsetCommitRequest.Topic t : body.topics()) {
            List<OffsetCommitResponse.Partition> partitions = new ArrayList<>();
            for (OffsetCommitRequest.Partition p : t.partitions()) {
                partitions.add(new OffsetCommitResponse.Partition(p.partitionIndex(),
                    error.apply(new TopicPartition(t.name(), p.partitionIndex())).code()));
            }
            topics.add(new OffsetCommitResponse.Topic(t.name(), partitions));
        }
        return new OffsetCommitResponse(0, topics);
    }
}
