package io.millrace.broker.server;

import io.millrace.broker.cluster.InvalidReplicaAssignmentException;
import io.millrace.broker.cluster.ZkCluster;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.CreatePartitionsRequest;
import io.millrace.common.protocol.message.CreatePartitionsRequest.CreatePartitionsAssignment;
import io.millrace.common.protocol.message.CreatePartitionsRequest.CreatePartitionsTopic;
import io.millrace.common.protocol.message.CreatePartitionsResponse;
import io.millrace.common.protocol.message.CreatePartitionsResponse.CreatePartitionsTopicResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * Grows topics through the controller ({@link ZkCluster#createPartitions}); each broker's assignment
 * listener then opens the logs of the new partitions it got. A partition count is never lowered:
 * a count at or below the current one is INVALID_PARTITIONS, as in Kafka. A manual assignment
 * must give each new partition as many distinct live brokers as the topic has replicas
 * (INVALID_REPLICA_ASSIGNMENT otherwise), the first being its preferred leader. With validate_only the request is checked against this
 * broker's view and nothing changes. A topic named twice in one request fails with INVALID_REQUEST.
 * Answered, from whichever thread finishes last, once every topic has grown or failed
 * (REQUEST_TIMED_OUT after the request's timeout).
 */
final class CreatePartitionsHandler implements ApiHandler {

    private final ZkCluster cluster;

    CreatePartitionsHandler(ZkCluster cluster) {
        this.cluster = cluster;
    }

    @Override
    public void handle(Request request) {
        CreatePartitionsRequest body = request.body();
        Map<String, Long> counts = body.topics().stream()
            .collect(Collectors.groupingBy(CreatePartitionsTopic::name, Collectors.counting()));
        List<CompletableFuture<CreatePartitionsTopicResult>> results = new ArrayList<>();
        for (CreatePartitionsTopic topic : body.topics()) {
            CompletableFuture<Void> grown = counts.get(topic.name()) > 1
                ? CompletableFuture.failedFuture(new ApiException(Errors.INVALID_REQUEST, "Topic " + topic.name()
                    + " is named more than once in the request"))
                : grow(topic, body.timeoutMs(), body.validateOnly());
            results.add(grown.handle((ok, failure) -> result(topic.name(), failure)));
        }
        CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).whenComplete((ok, failure) ->
            request.respond(new CreatePartitionsResponse(0, results.stream().map(CompletableFuture::join).toList())));
    }

    private CompletableFuture<Void> grow(CreatePartitionsTopic topic, int timeoutMs, boolean validateOnly) {
        try {
            List<List<Integer>> assignment = brokers(topic.assignments());
            return timeoutMs > 0
                ? cluster.createPartitions(topic.name(), topic.count(), assignment, validateOnly, Duration.ofMillis(timeoutMs))
                : cluster.createPartitions(topic.name(), topic.count(), assignment, validateOnly);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** The replicas of each new partition; empty when the controller is to choose. */
    private static List<List<Integer>> brokers(List<CreatePartitionsAssignment> assignments) {
        if (assignments == null) {
            return List.of();
        }
        List<List<Integer>> brokers = new ArrayList<>(assignments.size());
        for (CreatePartitionsAssignment assignment : assignments) {
            brokers.add(List.copyOf(assignment.brokerIds()));
        }
        if (brokers.isEmpty()) {
            throw new InvalidReplicaAssignmentException("The assignment of the new partitions is empty");
        }
        return brokers;
    }

    private static CreatePartitionsTopicResult result(String topic, Throwable failure) {
        if (failure == null) {
            return new CreatePartitionsTopicResult(topic, Errors.NONE.code(), null);
        }
        return new CreatePartitionsTopicResult(topic, ServerErrors.forException(failure).code(), ServerErrors.message(failure));
    }
}
