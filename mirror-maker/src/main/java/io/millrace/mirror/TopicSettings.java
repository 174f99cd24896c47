package io.millrace.mirror;

import io.millrace.common.client.Metadata;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.client.Node;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.DescribeConfigsRequest;
import io.millrace.common.protocol.message.DescribeConfigsResponse;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A live topic's own settings (the overrides its creator gave, such as retention.ms), read with
 * DescribeConfigs, so that the offline topic is created alike. Settings in {@code exclude} are left
 * to the offline cluster's defaults; a live broker that cannot describe the topic gives no settings
 * and a warning, never a stopped mirror. Thread-safe.
 */
final class TopicSettings {

    private static final Logger LOG = LoggerFactory.getLogger(TopicSettings.class);

    private final NetworkClient client;
    private final Metadata metadata;
    private final int timeoutMs;
    private final Set<String> exclude;
    private final String cluster;

    TopicSettings(NetworkClient client, Metadata metadata, int timeoutMs, Set<String> exclude, String cluster) {
        this.client = client;
        this.metadata = metadata;
        this.timeoutMs = timeoutMs;
        this.exclude = Set.copyOf(exclude);
        this.cluster = cluster;
    }

    /** The settings {@code topic} sets itself in the live cluster, less the excluded ones; empty when unknown. */
    Map<String, String> of(String topic) throws InterruptedException {
        DescribeConfigsRequest request = new DescribeConfigsRequest(List.of(
            new DescribeConfigsRequest.Resource(DescribeConfigsRequest.TOPIC, topic, null)), false, false);
        try {
            List<Node> nodes = metadata.fetchAllTopics().get(timeoutMs, TimeUnit.MILLISECONDS).nodes();
            DescribeConfigsResponse.Result result = client.<DescribeConfigsResponse>send(nodes.get(0), request, timeoutMs)
                .get(timeoutMs + 5_000L, TimeUnit.MILLISECONDS).results().get(0);
            if (result.error() != Errors.NONE) {
                LOG.warn("Cannot read the settings of {} in {} ({}: {}); the offline topic gets the offline defaults",
                    topic, cluster, result.error(), result.errorMessage());
                return Map.of();
            }
            Map<String, String> settings = new TreeMap<>();
            for (DescribeConfigsResponse.Entry entry : result.configs()) {
                if (entry.source() == DescribeConfigsResponse.SOURCE_TOPIC_CONFIG && entry.value() != null
                    && !exclude.contains(entry.name())) {
                    settings.put(entry.name(), entry.value());
                }
            }
            return settings;
        } catch (ExecutionException | java.util.concurrent.TimeoutException | RuntimeException e) {
            LOG.warn("Cannot read the settings of {} in {} ({}); the offline topic gets the offline defaults", topic,
                cluster, e.toString());
            return Map.of();
        }
    }
}
