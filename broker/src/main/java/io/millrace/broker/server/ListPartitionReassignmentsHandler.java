package io.millrace.broker.server;

import io.millrace.broker.cluster.ClusterSnapshot;
import io.millrace.broker.cluster.MetadataCache;
import io.millrace.broker.cluster.Reassignment;
import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.ListPartitionReassignmentsRequest;
import io.millrace.common.protocol.message.ListPartitionReassignmentsResponse;
import io.millrace.common.protocol.message.ListPartitionReassignmentsResponse.OngoingPartitionReassignment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * The partition moves going on (`kafka-reassign-partitions --list` and `--verify`, AdminClient's
 * {@code listPartitionReassignments}), from this broker's metadata: each moving partition's
 * replicas (target and original together), the replicas being added and those being removed. A
 * null topic list asks for every move; a named partition that is not moving is left out, as on Kafka.
 */
final class ListPartitionReassignmentsHandler implements ApiHandler {

    private final MetadataCache metadata;

    ListPartitionReassignmentsHandler(MetadataCache metadata) {
        this.metadata = metadata;
    }

    @Override
    public void handle(Request request) {
        ListPartitionReassignmentsRequest body = request.body();
        ClusterSnapshot snapshot = metadata.snapshot();
        SortedMap<TopicPartition, Reassignment> moving = snapshot.reassignments();
        Map<String, List<OngoingPartitionReassignment>> byTopic = new LinkedHashMap<>();
        for (Map.Entry<TopicPartition, Reassignment> entry : moving.entrySet()) {
            TopicPartition tp = entry.getKey();
            if (body.allPartitions() || named(body, tp)) {
                List<Integer> replicas = snapshot.partitionState(tp.topic(), tp.partition()).orElseThrow().replicas();
                byTopic.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(new OngoingPartitionReassignment(
                    tp.partition(), replicas, entry.getValue().adding(), entry.getValue().removing()));
            }
        }
        List<ListPartitionReassignmentsResponse.OngoingTopicReassignment> topics = new ArrayList<>();
        byTopic.forEach((topic, partitions) ->
            topics.add(new ListPartitionReassignmentsResponse.OngoingTopicReassignment(topic, partitions)));
        request.respond(new ListPartitionReassignmentsResponse(0, Errors.NONE.code(), null, topics));
    }

    private static boolean named(ListPartitionReassignmentsRequest body, TopicPartition tp) {
        return body.topics().stream().anyMatch(t -> t.name().equals(tp.topic()) && t.partitionIndexes().contains(tp.partition()));
    }
}
