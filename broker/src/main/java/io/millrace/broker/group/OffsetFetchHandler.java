package io.millrace.broker.group;

import io.millrace.broker.server.ApiHandler;
import io.millrace.broker.server.Request;
import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.OffsetFetchRequest;
import io.millrace.common.protocol.message.OffsetFetchResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads committed offsets from the offset registry, in the request's form (one group up to version
 * 7, several from 8). A partition without a commit answers offset -1; no topics (null) means every
 * partition the group has committed. The read runs off the request thread and answers later.
 */
public final class OffsetFetchHandler implements ApiHandler {

    private static final Logger LOG = LoggerFactory.getLogger(OffsetFetchHandler.class);

    /** The first version with a group-level error code. */
    private static final short FIRST_GROUP_ERROR_VERSION = 2;

    private final GroupCoordinator coordinator;

    public OffsetFetchHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public void handle(Request request) {
        OffsetFetchRequest body = request.body();
        if (request.version() < OffsetFetchRequest.FIRST_BATCHED_VERSION) {
            fetchGroup(body.groupId(), body.topics(), body.requireStable())
                .thenAccept(g -> request.respond(single(g, request.version())));
            return;
        }
        List<CompletableFuture<OffsetFetchResponse.Group>> groups = new ArrayList<>();
        for (OffsetFetchRequest.Group g : body.groups()) {
            groups.add(fetchGroup(g.groupId(), g.topics(), body.requireStable()));
        }
        CompletableFuture.allOf(groups.toArray(CompletableFuture[]::new)).thenRun(() ->
            request.respond(new OffsetFetchResponse(0, List.of(), Errors.NONE.code(),
                groups.stream().map(CompletableFuture::join).toList())));
    }

    private static OffsetFetchResponse single(OffsetFetchResponse.Group group, short version) {
        if (group.errorCode() != Errors.NONE.code() && version < FIRST_GROUP_ERROR_VERSION) {
            return new OffsetFetchResponse(0, group.topics(), Errors.NONE.code(), List.of());
        }
        return new OffsetFetchResponse(0, group.topics(), group.errorCode(), List.of());
    }

    /** Never completes exceptionally: failures become the group's error. */
    private CompletableFuture<OffsetFetchResponse.Group> fetchGroup(String groupId, List<OffsetFetchRequest.Topic> topics,
                                                                 boolean requireStable) {
        if (!GroupIds.isValid(groupId)) {
            return CompletableFuture.completedFuture(failed(groupId, topics, Errors.INVALID_GROUP_ID));
        }
        if (!coordinator.isCoordinatorOf(groupId)) {
            return CompletableFuture.completedFuture(failed(groupId, topics, Errors.NOT_COORDINATOR));
        }
        List<TopicPartition> partitions = topics == null ? null : partitions(topics);
        return coordinator.fetch(groupId, partitions).handle((committed, failure) -> {
            if (failure != null) {
                LOG.warn("Could not read the committed offsets of group {}", groupId, failure);
                return failed(groupId, topics, Errors.COORDINATOR_NOT_AVAILABLE);
            }
            return answer(groupId, partitions != null ? partitions : List.copyOf(committed.keySet()), committed,
                tp -> requireStable && coordinator.hasPendingCommit(groupId, tp));
        });
    }

    private static List<TopicPartition> partitions(List<OffsetFetchRequest.Topic> topics) {
        List<TopicPartition> partitions = new ArrayList<>();
        for (OffsetFetchRequest.Topic t : topics) {
            for (int p : t.partitionIndexes()) {
                partitions.add(new TopicPartition(t.name(), p));
            }
        }
        return partitions;
    }

    /**
     * The committed offsets; with {@code unstable} a partition an open transaction holds a commit of
     * is answered UNSTABLE_OFFSET_COMMIT (asked with require_stable, as a read-committed consumer
     * asks), which the consumer retries until the transaction ends.
     */
    private static OffsetFetchResponse.Group answer(String groupId, List<TopicPartition> partitions,
                                                    Map<TopicPartition, OffsetRegistry.Committed> committed,
                                                    java.util.function.Predicate<TopicPartition> unstable) {
        Map<String, List<OffsetFetchResponse.Partition>> byTopic = new LinkedHashMap<>();
        for (TopicPartition tp : partitions) {
            if (unstable.test(tp)) {
                byTopic.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(new OffsetFetchResponse.Partition(
                    tp.partition(), -1L, -1, "", Errors.UNSTABLE_OFFSET_COMMIT.code()));
                continue;
            }
            OffsetRegistry.Committed c = committed.get(tp);
            byTopic.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(new OffsetFetchResponse.Partition(
                tp.partition(), c == null ? -1L : c.offset(), -1, c == null ? "" : c.metadata(), Errors.NONE.code()));
        }
        List<OffsetFetchResponse.Topic> topics = new ArrayList<>();
        byTopic.forEach((name, list) -> topics.add(new OffsetFetchResponse.Topic(name, list)));
        return new OffsetFetchResponse.Group(groupId, topics, Errors.NONE.code());
    }

    /** The group's error, repeated on each partition asked for (version 1 has no group-level error). */
    private static OffsetFetchResponse.Group failed(String groupId, List<OffsetFetchRequest.Topic> topics, Errors error) {
        List<OffsetFetchResponse.Topic> answered = new ArrayList<>();
        if (topics != null) {
            for (OffsetFetchRequest.Topic t : topics) {
                List<OffsetFetchResponse.Partition> partitions = new ArrayList<>();
                for (int p : t.partitionIndexes()) {
                    partitions.add(new OffsetFetchResponse.Partition(p, -1L, -1, "", error.code()));
                }
                answered.add(new OffsetFetchResponse.Topic(t.name(), partitions));
            }
        }
        return new OffsetFetchResponse.Group(groupId, answered, error.code());
    }
}
