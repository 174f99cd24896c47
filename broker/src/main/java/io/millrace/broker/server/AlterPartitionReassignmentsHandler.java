package io.millrace.broker.server;

import io.millrace.broker.cluster.ReassignmentOutcome;
import io.millrace.broker.cluster.ZkCluster;
import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.AlterPartitionReassignmentsRequest;
import io.millrace.common.protocol.message.AlterPartitionReassignmentsResponse;
import io.millrace.common.protocol.message.AlterPartitionReassignmentsResponse.PartitionResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Moves partitions to new replicas, or cancels their moves, when an operator asks
 * (`kafka-reassign-partitions --execute` and `--cancel`, AdminClient's
 * {@code alterPartitionReassignments}). Kafka's AdminClient sends it to the controller; the
 * controller writes each move ({@code ReassignmentDuty}) and answers once it has started and its own
 * metadata shows it (within the request's timeout), the move going on in the background. Another broker answers NOT_CONTROLLER, at the top and for each
 * partition. A partition named twice in one request is INVALID_REQUEST, as on Kafka.
 */
final class AlterPartitionReassignmentsHandler implements ApiHandler {

    private final ZkCluster cluster;

    AlterPartitionReassignmentsHandler(ZkCluster cluster) {
        this.cluster = cluster;
    }

    @Override
    public void handle(Request request) {
        AlterPartitionReassignmentsRequest body = request.body();
        Map<TopicPartition, List<Integer>> targets = new LinkedHashMap<>();
        Map<TopicPartition, ReassignmentOutcome> duplicates = new LinkedHashMap<>();
        for (AlterPartitionReassignmentsRequest.ReassignableTopic topic : body.topics()) {
            for (AlterPartitionReassignmentsRequest.ReassignablePartition partition : topic.partitions()) {
                TopicPartition tp = new TopicPartition(topic.name(), partition.partitionIndex());
                if (targets.containsKey(tp) || duplicates.containsKey(tp)) {
                    targets.remove(tp);
                    duplicates.put(tp, ReassignmentOutcome.failed(Errors.INVALID_REQUEST, tp + " is named more than once"));
                } else {
                    targets.put(tp, partition.replicas());
                }
            }
        }
        Duration timeout = Duration.ofMillis(Math.max(0, body.timeoutMs()));
        cluster.alterReassignments(targets, body.allowReplicationFactorChange(), timeout).whenComplete((outcomes, failure) -> {
            Map<TopicPartition, ReassignmentOutcome> all = new LinkedHashMap<>();
            if (failure != null) {
                Errors error = ServerErrors.forException(failure);
                targets.keySet().forEach(tp -> all.put(tp, ReassignmentOutcome.failed(error, ServerErrors.message(failure))));
            } else {
                all.putAll(outcomes);
            }
            all.putAll(duplicates);
            respond(request, body.allowReplicationFactorChange(), all);
        });
    }

    private static void respond(Request request, boolean allowChange, Map<TopicPartition, ReassignmentOutcome> outcomes) {
        boolean notController = !outcomes.isEmpty()
            && outcomes.values().stream().allMatch(o -> o.error() == Errors.NOT_CONTROLLER);
        Map<String, List<PartitionResponse>> byTopic = new LinkedHashMap<>();
        outcomes.forEach((tp, outcome) -> byTopic.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(
            new PartitionResponse(tp.partition(), outcome.error().code(), outcome.message())));
        List<AlterPartitionReassignmentsResponse.TopicResponse> topics = new ArrayList<>();
        byTopic.forEach((topic, partitions) -> topics.add(new AlterPartitionReassignmentsResponse.TopicResponse(topic, partitions)));
        Errors top = notController ? Errors.NOT_CONTROLLER : Errors.NONE;
        request.respond(new AlterPartitionReassignmentsResponse(0, allowChange, top.code(),
            notController ? top.message() : null, topics));
    }
}
