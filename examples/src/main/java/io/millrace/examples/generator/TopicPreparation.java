package io.millrace.examples.generator;

import io.millrace.common.client.Cluster;
import io.millrace.common.client.CommonClientConfigs;
import io.millrace.common.client.Metadata;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.client.TopicCreation;
import io.millrace.common.errors.MillraceException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.CreateTopicsResponse;
import io.millrace.producer.ProducerConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Makes sure the topics of a run exist before the first event is sent, creating those that do not (CreateTopics,
 * with the broker's default partition count). Millrace's producer does not ask brokers to create topics, so
 * without this every event to a missing topic would wait {@code max.block.ms} and fail, and a demo or a smoke
 * test against a fresh cluster would need an operator step first.
 */
final class TopicPreparation {

    private static final int TIMEOUT_MS = 10_000;

    private TopicPreparation() {
    }

    /**
     * Creates the topics of {@code options} that the cluster does not have, and returns their names.
     *
     * @throws MillraceException when the cluster cannot be reached, or refuses to create a topic
     */
    static List<String> ensureExist(GeneratorOptions options) throws InterruptedException {
        ProducerConfig config = new ProducerConfig(FrontEndHost.producerSettings("admin", options));
        NetworkClient client = new NetworkClient(CommonClientConfigs.networkOptions(config, "event-generator-admin"));
        Metadata metadata = new Metadata(client, CommonClientConfigs.bootstrap(config),
            config.getLong(CommonClientConfigs.RETRY_BACKOFF_MS_CONFIG), 60_000L);
        try {
            List<String> created = new ArrayList<>();
            Cluster cluster = cluster(metadata, options);
            for (EventTopic topic : options.topics()) {
                if (cluster.partitionCount(topic.topic()) <= 0 && create(client, metadata, topic.topic())) {
                    created.add(topic.topic());
                }
            }
            return created;
        } finally {
            metadata.close();
            client.close();
        }
    }

    private static Cluster cluster(Metadata metadata, GeneratorOptions options) throws InterruptedException {
        try {
            return metadata.fetchAllTopics().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new MillraceException("Cannot reach the cluster at " + options.bootstrapServers() + ": " + why(e), e);
        }
    }

    /** Whether this call created the topic; false when another client created it first. */
    private static boolean create(NetworkClient client, Metadata metadata, String topic) throws InterruptedException {
        CreateTopicsResponse.CreatableTopicResult result;
        try {
            result = TopicCreation.create(client, metadata, topic, -1, Map.of(), TIMEOUT_MS);
        } catch (ExecutionException | TimeoutException e) {
            throw new MillraceException("Cannot create the topic " + topic + ": " + why(e), e);
        }
        if (result.error() == Errors.TOPIC_ALREADY_EXISTS) {
            return false;
        }
        if (result.error() != Errors.NONE) {
            throw new MillraceException("Cannot create the topic " + topic + ": " + result.error() + " "
                + result.errorMessage());
        }
        return true;
    }

    /** What went wrong, without the future's wrapping. */
    private static String why(Exception e) {
        Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        return cause.getMessage() != null ? cause.getMessage() : cause.toString();
    }
}
