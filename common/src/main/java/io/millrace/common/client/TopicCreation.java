package io.millrace.common.client;

import io.millrace.common.protocol.message.CreateTopicsRequest;
import io.millrace.common.protocol.message.CreateTopicsResponse;
import io.millrace.common.protocol.message.CreateTopicsResponse.CreatableTopicResult;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Creates one topic over the Kafka protocol (CreateTopics to any broker, which hands it to the
 * controller), for the clients that create what they write to: the mirror's offline topics, the audit
 * topic. The caller reads the result's error (TOPIC_ALREADY_EXISTS included) and decides.
 */
public final class TopicCreation {

    private TopicCreation() {
    }

    /** The request for one topic with the broker's replication factor and the given settings. */
    static CreateTopicsRequest request(String topic, int partitions, Map<String, String> settings, int timeoutMs) {
        List<CreateTopicsRequest.TopicConfig> configs = settings.entrySet().stream()
            .map(e -> new CreateTopicsRequest.TopicConfig(e.getKey(), e.getValue())).toList();
        return new CreateTopicsRequest(List.of(new CreateTopicsRequest.CreatableTopic(topic, partitions, (short) -1,
            List.of(), configs)), timeoutMs, false);
    }

    /**
     * Sends the request for {@code topic} to a broker of {@code metadata}'s cluster and waits for its
     * answer, at most about twice {@code timeoutMs}.
     */
    public static CreatableTopicResult create(NetworkClient client, Metadata metadata, String topic, int partitions,
                                              Map<String, String> settings, int timeoutMs)
        throws InterruptedException, ExecutionException, TimeoutException {
        Node node = metadata.fetchAllTopics().get(timeoutMs, TimeUnit.MILLISECONDS).nodes().get(0);
        return client.<CreateTopicsResponse>send(node, request(topic, partitions, settings, timeoutMs), timeoutMs + 5_000)
            .get(timeoutMs + 10_000L, TimeUnit.MILLISECONDS).topics().get(0);
    }
}
