package io.millrace.broker.server;

import io.millrace.broker.cluster.ClusterSnapshot;
import io.millrace.broker.cluster.ZkCluster;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.DeleteTopicsRequest;
import io.millrace.common.protocol.message.DeleteTopicsRequest.TopicRef;
import io.millrace.common.protocol.message.DeleteTopicsResponse;
import io.millrace.common.protocol.message.DeleteTopicsResponse.DeletableTopicResult;
import io.millrace.common.protocol.types.Uuids;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Deletes topics through the controller ({@link ZkCluster#deleteTopic}); each broker's assignment
 * listener then deletes its logs. A topic named only by id (DeleteTopics v6) is looked up among the
 * current topics' ids; an id no current topic has is UNKNOWN_TOPIC_ID. Answered once every deletion
 * finished or failed.
 */
final class DeleteTopicsHandler implements ApiHandler {

    private final ZkCluster cluster;

    DeleteTopicsHandler(ZkCluster cluster) {
        this.cluster = cluster;
    }

    @Override
    public void handle(Request request) {
        DeleteTopicsRequest body = request.body();
        List<CompletableFuture<DeletableTopicResult>> results = new ArrayList<>();
        ClusterSnapshot snapshot = cluster.metadata().snapshot();
        for (TopicRef asked : body.topics()) {
            TopicRef topic = resolved(snapshot, asked);
            results.add(delete(topic, body.timeoutMs()).handle((ok, failure) -> result(topic, failure)));
        }
        CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).whenComplete((ok, failure) ->
            request.respond(new DeleteTopicsResponse(0, results.stream().map(CompletableFuture::join).toList())));
    }

    /** The reference with its name filled in from its id, when it named the topic by id only and the id is current. */
    private static TopicRef resolved(ClusterSnapshot snapshot, TopicRef asked) {
        if (Uuids.ZERO.equals(asked.topicId())) {
            return asked;
        }
        return snapshot.topicById(asked.topicId()).map(t -> new TopicRef(t.name(), asked.topicId()))
            .orElse(new TopicRef(null, asked.topicId()));
    }

    private CompletableFuture<Void> delete(TopicRef topic, int timeoutMs) {
        if (topic.name() == null) {
            return CompletableFuture.failedFuture(new ApiException(Errors.UNKNOWN_TOPIC_ID,
                "No topic has id " + topic.topicId()));
        }
        try {
            return timeoutMs > 0 ? cluster.deleteTopic(topic.name(), Duration.ofMillis(timeoutMs)) : cluster.deleteTopic(topic.name());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static DeletableTopicResult result(TopicRef topic, Throwable failure) {
        if (failure == null) {
            return new DeletableTopicResult(topic.name(), topic.topicId(), Errors.NONE.code(), null);
        }
        return new DeletableTopicResult(topic.name(), topic.topicId(), ServerErrors.forException(failure).code(),
            ServerErrors.message(failure));
    }
}
