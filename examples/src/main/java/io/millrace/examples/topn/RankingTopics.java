package io.millrace.examples.topn;

import io.millrace.common.client.Cluster;
import io.millrace.common.client.CommonClientConfigs;
import io.millrace.common.client.Metadata;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.client.TopicCreation;
import io.millrace.common.errors.MillraceException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.CreateTopicsResponse;
import io.millrace.consumer.ConsumerConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Creates the partials and totals topics when they do not exist, with one partition each. One partition keeps
 * each instance's rankings in the order it made them, which the merger relies on (an instance's later window
 * never overtakes its earlier one), and a single total ranker reads them all anyway.
 */
final class RankingTopics {

    private static final int TIMEOUT_MS = 10_000;

    private RankingTopics() {
    }

    /**
     * Creates whichever of the two topics is missing and returns the names of those it created.
     *
     * @throws MillraceException when the cluster cannot be reached, or refuses to create a topic
     */
    static List<String> ensureExist(TopUrlsOptions options) throws InterruptedException {
        ConsumerConfig config = new ConsumerConfig(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
            options.bootstrapServers()));
        NetworkClient client = new NetworkClient(CommonClientConfigs.networkOptions(config, options.groupPrefix()
            + "-admin"));
        Metadata metadata = new Metadata(client, CommonClientConfigs.bootstrap(config),
            config.getLong(CommonClientConfigs.RETRY_BACKOFF_MS_CONFIG), 60_000L);
        try {
            Cluster cluster = metadata.fetchAllTopics().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            List<String> created = new ArrayList<>();
            for (String topic : List.of(options.partialsTopic(), options.totalsTopic())) {
                if (cluster.partitionCount(topic) <= 0 && create(client, metadata, topic)) {
                    created.add(topic);
                }
            }
            return created;
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            throw new MillraceException("Cannot reach the cluster at " + options.bootstrapServers() + ": "
                + (cause.getMessage() != null ? cause.getMessage() : cause.toString()), e);
        } finally {
            metadata.close();
            client.close();
        }
    }

    /** Whether this call created the topic; false when another client created it first. */
    private static boolean create(NetworkClient client, Metadata metadata, String topic)
            throws InterruptedException, ExecutionException, TimeoutException {
        CreateTopicsResponse.CreatableTopicResult result = TopicCreation.create(client, metadata, topic, 1, Map.of(),
            TIMEOUT_MS);
        if (result.error() == Errors.TOPIC_ALREADY_EXISTS) {
            return false;
        }
        if (result.error() != Errors.NONE) {
            throw new MillraceException("Cannot create the topic " + topic + ": " + result.error() + " "
                + result.errorMessage());
        }
        return true;
    }
}
