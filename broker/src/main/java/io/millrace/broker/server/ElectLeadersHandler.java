package io.millrace.broker.server;

import io.millrace.broker.cluster.ZkCluster;
import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.ElectLeadersRequest;
import io.millrace.common.protocol.message.ElectLeadersResponse;
import io.millrace.common.protocol.message.ElectLeadersResponse.PartitionResult;
import io.millrace.common.protocol.message.ElectLeadersResponse.ReplicaElectionResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Elects leaders when an operator asks (`kafka-leader-election`, AdminClient's {@code electLeaders}):
 * preferred replicas, or for partitions whose leader is gone any live replica (unclean). The
 * controller elects (Kafka's AdminClient sends the request to the broker Metadata names as
 * controller); another broker answers NOT_CONTROLLER for each partition, as a ZooKeeper-era Kafka
 * broker does. The answer comes once the answering broker's metadata shows the new leaders (within the
 * request's timeout, REQUEST_TIMED_OUT for a partition it has not seen by then), each partition with
 * NONE, ELECTION_NOT_NEEDED (it already has such a leader), PREFERRED_LEADER_NOT_AVAILABLE or
 * ELIGIBLE_LEADERS_NOT_AVAILABLE, or UNKNOWN_TOPIC_OR_PARTITION.
 */
final class ElectLeadersHandler implements ApiHandler {

    private final ZkCluster cluster;

    ElectLeadersHandler(ZkCluster cluster) {
        this.cluster = cluster;
    }

    @Override
    public void handle(Request request) {
        ElectLeadersRequest body = request.body();
        Set<TopicPartition> named = named(body);
        if (body.electionType() != ElectLeadersRequest.PREFERRED && body.electionType() != ElectLeadersRequest.UNCLEAN) {
            respond(request, Errors.INVALID_REQUEST, failed(named, Errors.INVALID_REQUEST));
            return;
        }
        boolean unclean = body.electionType() == ElectLeadersRequest.UNCLEAN;
        cluster.electLeaders(unclean, named, Duration.ofMillis(Math.max(0, body.timeoutMs()))).whenComplete((results, failure) -> {
            if (failure != null) {
                // a request naming no partition can only carry the error at the top (version 1 and later)
                Errors error = ServerErrors.forException(failure);
                respond(request, named == null ? error : Errors.NONE, failed(named, error));
            } else {
                respond(request, Errors.NONE, results);
            }
        });
    }

    /** The partitions the request names, each once, or null for all. */
    private static Set<TopicPartition> named(ElectLeadersRequest body) {
        if (body.allPartitions()) {
            return null;
        }
        Set<TopicPartition> named = new LinkedHashSet<>();
        for (ElectLeadersRequest.TopicPartitions topic : body.topicPartitions()) {
            topic.partitions().forEach(p -> named.add(new TopicPartition(topic.topic(), p)));
        }
        return named;
    }

    private static Map<TopicPartition, Errors> failed(Set<TopicPartition> named, Errors error) {
        Map<TopicPartition, Errors> results = new LinkedHashMap<>();
        if (named != null) {
            named.forEach(tp -> results.put(tp, error));
        }
        return results;
    }

    private static void respond(Request request, Errors error, Map<TopicPartition, Errors> results) {
        Map<String, List<PartitionResult>> byTopic = new LinkedHashMap<>();
        results.forEach((tp, result) -> byTopic.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(
            new PartitionResult(tp.partition(), result.code(), result == Errors.NONE ? null : result.message())));
        List<ReplicaElectionResult> topics = new ArrayList<>();
        byTopic.forEach((topic, partitions) -> topics.add(new ReplicaElectionResult(topic, partitions)));
        request.respond(new ElectLeadersResponse(0, error.code(), topics));
    }
}
