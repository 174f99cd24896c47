package io.millrace.broker.group;

import io.millrace.broker.cluster.MetadataCache;
import io.millrace.broker.server.ApiHandler;
import io.millrace.broker.server.Request;
import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.TxnOffsetCommitRequest;
import io.millrace.common.protocol.message.TxnOffsetCommitResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * TxnOffsetCommit (api key 28, versions 0-4): a transactional producer's consumed offsets, committed
 * with its transaction ({@code sendOffsetsToTransaction}). They are appended to the group's partition
 * of the offsets topic in the producer's transaction and count once its commit marker follows; a
 * consumer asking with require_stable is told UNSTABLE_OFFSET_COMMIT meanwhile. From version 3 the
 * producer names the consumer's generation and member, checked as OffsetCommit checks them; without
 * them (generation -1, no member) any group takes the offsets. A producer fenced by a newer epoch gets
 * PRODUCER_FENCED (INVALID_PRODUCER_EPOCH before version 3).
 */
public final class TxnOffsetCommitHandler implements ApiHandler {

    private static final short FIRST_PRODUCER_FENCED_VERSION = 3;

    private final GroupCoordinator coordinator;
    private final MetadataCache metadata;

    public TxnOffsetCommitHandler(GroupCoordinator coordinator, MetadataCache metadata) {
        this.coordinator = coordinator;
        this.metadata = metadata;
    }

    @Override
    public void handle(Request request) {
        TxnOffsetCommitRequest body = request.body();
        Errors groupError = checkGroup(body);
        if (groupError != Errors.NONE) {
            request.respond(answer(body, tp -> groupError));
            return;
        }
        CommitPartitions commits = new CommitPartitions(metadata);
        for (TxnOffsetCommitRequest.Topic t : body.topics()) {
            for (TxnOffsetCommitRequest.Partition p : t.partitions()) {
                commits.add(t.name(), p.partitionIndex(), p.committedOffset(), p.committedMetadata());
            }
        }
        boolean fencedKnown = request.version() >= FIRST_PRODUCER_FENCED_VERSION;
        coordinator.commitInTransaction(body.groupId(), body.producerId(), body.producerEpoch(), commits.writes())
            .whenComplete((ok, failure) -> {
                Errors result = failure == null ? Errors.NONE : appendError(failure, fencedKnown);
                request.respond(answer(body, tp -> commits.answer(tp, result)));
            });
    }

    private Errors checkGroup(TxnOffsetCommitRequest body) {
        if (!GroupIds.isValid(body.groupId())) {
            return Errors.INVALID_GROUP_ID;
        }
        if (!coordinator.isCoordinatorOf(body.groupId())) {
            return Errors.NOT_COORDINATOR;
        }
        String memberId = body.memberId() == null ? "" : body.memberId();
        if (body.generationId() < 0 && memberId.isEmpty()) {
            return Errors.NONE;
        }
        Optional<ConsumerGroup> consumerGroup = coordinator.consumerGroups().active(body.groupId());
        if (consumerGroup.isPresent()) {
            return consumerGroup.get().checkCommit(memberId, body.generationId());
        }
        Optional<ClassicGroup> group = coordinator.existingGroup(body.groupId());
        if (group.isEmpty()) {
            return Errors.ILLEGAL_GENERATION;
        }
        return group.get().checkCommit(memberId, body.groupInstanceId(), body.generationId(), coordinator.nowMs());
    }

    private static Errors appendError(Throwable failure, boolean fencedKnown) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        Errors error = cause instanceof ApiException api ? api.error() : Errors.forException(cause);
        return switch (error) {
            case INVALID_PRODUCER_EPOCH -> fencedKnown ? Errors.PRODUCER_FENCED : Errors.INVALID_PRODUCER_EPOCH;
            case NOT_COORDINATOR, NOT_LEADER_OR_FOLLOWER, KAFKA_STORAGE_ERROR -> Errors.NOT_COORDINATOR;
            case REQUEST_TIMED_OUT -> Errors.REQUEST_TIMED_OUT;
            case MESSAGE_TOO_LARGE, RECORD_LIST_TOO_LARGE -> Errors.INVALID_COMMIT_OFFSET_SIZE;
            case INVALID_TXN_STATE -> Errors.INVALID_TXN_STATE;
            default -> Errors.COORDINATOR_NOT_AVAILABLE;
        };
    }

    private static TxnOffsetCommitResponse answer(TxnOffsetCommitRequest body, Function<TopicPartition, Errors> error) {
        List<TxnOffsetCommitResponse.Topic> topics = new ArrayList<>();
        for (TxnOffsetCommitRequest.Topic t : body.topics()) {
            List<TxnOffsetCommitResponse.Partition> partitions = new ArrayList<>();
            for (TxnOffsetCommitRequest.Partition p : t.partitions()) {
                partitions.add(new TxnOffsetCommitResponse.Partition(p.partitionIndex(),
                    error.apply(new TopicPartition(t.name(), p.partitionIndex())).code()));
            }
            topics.add(new TxnOffsetCommitResponse.Topic(t.name(), partitions));
        }
        return new TxnOffsetCommitResponse(0, topics);
    }
}
