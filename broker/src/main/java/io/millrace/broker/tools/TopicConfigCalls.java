package io.millrace.broker.tools;

import io.millrace.common.client.NetworkClient;
import io.millrace.common.client.Node;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.DescribeConfigsRequest;
import io.millrace.common.protocol.message.DescribeConfigsResponse;
import io.millrace.common.protocol.message.IncrementalAlterConfigsRequest;
import io.millrace.common.protocol.message.IncrementalAlterConfigsRequest.AlterableConfig;
import io.millrace.common.protocol.message.IncrementalAlterConfigsResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * The topic-setting requests of {@link TopicsCommand}: a topic's overrides (DescribeConfigs, the
 * entries whose source is the topic itself) and a change to them (IncrementalAlterConfigs), as
 * {@code kafka-topics --describe} and {@code kafka-configs --alter} send them, so they work against
 * Millrace and Apache Kafka brokers alike.
 */
final class TopicConfigCalls {

    private TopicConfigCalls() {
    }

    /** Each topic's overrides, sorted by name; a topic the broker could not describe is left out. */
    static CompletableFuture<Map<String, Map<String, String>>> overrides(NetworkClient client, Node broker,
                                                                         List<String> topics, int timeoutMs) {
        List<DescribeConfigsRequest.Resource> resources = topics.stream()
            .map(t -> new DescribeConfigsRequest.Resource(DescribeConfigsRequest.TOPIC, t, null)).toList();
        CompletableFuture<DescribeConfigsResponse> answer =
            client.send(broker, new DescribeConfigsRequest(resources, false, false), timeoutMs);
        return answer.thenApply(TopicConfigCalls::overrides);
    }

    private static Map<String, Map<String, String>> overrides(DescribeConfigsResponse response) {
        Map<String, Map<String, String>> overrides = new TreeMap<>();
        for (DescribeConfigsResponse.Result result : response.results()) {
            if (result.error() == Errors.NONE) {
                Map<String, String> set = new TreeMap<>();
                result.configs().stream().filter(e -> e.source() == DescribeConfigsResponse.SOURCE_TOPIC_CONFIG)
                    .forEach(e -> set.put(e.name(), e.value()));
                overrides.put(result.resourceName(), set);
            }
        }
        return overrides;
    }

    /** Sets {@code set} and removes {@code delete} from the topic's overrides, leaving the others. */
    static CompletableFuture<IncrementalAlterConfigsResponse.Result> alter(NetworkClient client, Node broker, String topic,
                                                                          Map<String, String> set, List<String> delete,
                                                                          int timeoutMs) {
        List<AlterableConfig> configs = new ArrayList<>();
        set.forEach((k, v) -> configs.add(new AlterableConfig(k, IncrementalAlterConfigsRequest.SET, v)));
        delete.forEach(k -> configs.add(new AlterableConfig(k, IncrementalAlterConfigsRequest.DELETE, null)));
        IncrementalAlterConfigsRequest request = new IncrementalAlterConfigsRequest(List.of(
            new IncrementalAlterConfigsRequest.Resource(DescribeConfigsRequest.TOPIC, topic, configs)), false);
        CompletableFuture<IncrementalAlterConfigsResponse> answer = client.send(broker, request, timeoutMs);
        return answer.thenApply(r -> r.responses().get(0));
    }
}
