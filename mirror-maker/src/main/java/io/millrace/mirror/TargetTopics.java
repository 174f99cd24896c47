package io.millrace.mirror;

import io.millrace.common.client.Cluster;
import io.millrace.common.client.CommonClientConfigs;
import io.millrace.common.client.Metadata;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.client.Node;
import io.millrace.common.client.TopicCreation;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.CreatePartitionsRequest;
import io.millrace.common.protocol.message.CreatePartitionsResponse;
import io.millrace.common.protocol.message.CreateTopicsResponse;
import io.millrace.producer.ProducerConfig;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mirrored topics on the offline side. Before the first record of a topic is sent, the topic must
 * exist there with at least as many partitions as the live one when records keep their partition:
 * it is created with the live topic's count and its settings when missing (CreateTopics, never the
 * broker's auto-creation with its default count), and grown to the live count when it has fewer
 * (CreatePartitions: a live topic may grow while it is mirrored); with {@code create.topics=false}
 * a topic with fewer partitions is an error. A
 * setting the offline cluster refuses (INVALID_CONFIG: a kind of broker that does not know it) does not
 * stop the mirror: the topic is created without the live settings, with a warning. Thread-safe; each
 * topic is checked once.
 */
final class TargetTopics implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TargetTopics.class);
    private static final int TIMEOUT_MS = 30_000;

    private final NetworkClient client;
    private final Metadata metadata;
    private final MirrorMakerConfig config;
    private final Map<String, Integer> known = new ConcurrentHashMap<>();

    TargetTopics(ProducerConfig producer, MirrorMakerConfig config) {
        this.config = config;
        this.client = new NetworkClient(CommonClientConfigs.networkOptions(producer, "millrace-mirror-admin"));
        this.metadata = new Metadata(client, CommonClientConfigs.bootstrap(producer),
            producer.getLong(CommonClientConfigs.RETRY_BACKOFF_MS_CONFIG), 60_000L, false);
    }

    /** Where a live topic's settings come from, asked only when its offline topic has to be created. */
    interface Settings {
        Map<String, String> get() throws InterruptedException;
    }

    /**
     * Makes sure {@code topic} can take the records of a live topic with {@code sourcePartitions}
     * partitions, creating it with {@code settings} when it does not exist.
     */
    void ensure(String topic, int sourcePartitions, Settings settings) throws InterruptedException {
        Integer count = known.get(topic);
        if (count != null && (count >= sourcePartitions || !config.keepsPartitions())) {
            return;
        }
        int partitions = partitionCount(topic);
        if (partitions <= 0) {
            if (!config.createTopics()) {
                throw new MirrorException("Topic " + topic + " does not exist in the offline cluster and "
                    + MirrorMakerConfig.CREATE_TOPICS_CONFIG + " is false");
            }
            create(topic, sourcePartitions, settings.get());
            partitions = awaitPartitions(topic, 1);
        }
        if (config.keepsPartitions() && partitions < sourcePartitions && config.createTopics()) {
            grow(topic, sourcePartitions);
            partitions = awaitPartitions(topic, sourcePartitions);
        }
        if (config.keepsPartitions() && partitions < sourcePartitions) {
            throw new MirrorException("Topic " + topic + " has " + partitions + " partitions in the offline cluster and "
                + sourcePartitions + " in a live one: records keep their partition (" + MirrorMakerConfig.PARTITION_PLACEMENT_CONFIG
                + "=source), so add partitions offline or place records by key");
        }
        known.merge(topic, partitions, Math::max);
    }

    private int partitionCount(String topic) throws InterruptedException {
        try {
            Cluster cluster = metadata.fetchAllTopics().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            return cluster.partitionCount(topic);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new MirrorException("Could not read the offline cluster's topics: " + e, e);
        }
    }

    private void create(String topic, int partitions, Map<String, String> settings) throws InterruptedException {
        CreateTopicsResponse.CreatableTopicResult result = send(topic, partitions, settings);
        if (result.error() == Errors.INVALID_CONFIG && !settings.isEmpty()) {
            LOG.warn("The offline cluster refuses the live settings {} of {} ({}); creating it with the offline defaults",
                settings, topic, result.errorMessage());
            result = send(topic, partitions, Map.of());
        }
        if (result.error() != Errors.NONE && result.error() != Errors.TOPIC_ALREADY_EXISTS) {
            throw new MirrorException("Could not create topic " + topic + " in the offline cluster: " + result.error()
                + (result.errorMessage() == null ? "" : " (" + result.errorMessage() + ")"));
        }
        LOG.info("Created topic {} with {} partitions and settings {} in the offline cluster", topic, partitions, settings);
    }

    private CreateTopicsResponse.CreatableTopicResult send(String topic, int partitions, Map<String, String> settings)
        throws InterruptedException {
        try {
            return TopicCreation.create(client, metadata, topic, partitions, settings, TIMEOUT_MS);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new MirrorException("Could not create topic " + topic + " in the offline cluster: " + e, e);
        }
    }

    /**
     * Grows the offline topic to the live topic's count. INVALID_PARTITIONS means it already has that
     * many (another mirror grew it first), which the caller's next look confirms.
     */
    private void grow(String topic, int partitions) throws InterruptedException {
        CreatePartitionsResponse.CreatePartitionsTopicResult result;
        try {
            Node node = metadata.fetchAllTopics().get(TIMEOUT_MS, TimeUnit.MILLISECONDS).nodes().get(0);
            CreatePartitionsRequest request = new CreatePartitionsRequest(List.of(
                new CreatePartitionsRequest.CreatePartitionsTopic(topic, partitions, null)), TIMEOUT_MS, false);
            result = client.<CreatePartitionsResponse>send(node, request, TIMEOUT_MS + 5_000)
                .get(TIMEOUT_MS + 10_000L, TimeUnit.MILLISECONDS).results().get(0);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new MirrorException("Could not add partitions to topic " + topic + " in the offline cluster: " + e, e);
        }
        if (result.error() != Errors.NONE && result.error() != Errors.INVALID_PARTITIONS) {
            throw new MirrorException("Could not add partitions to topic " + topic + " in the offline cluster: "
                + result.error() + (result.errorMessage() == null ? "" : " (" + result.errorMessage() + ")"));
        }
        LOG.info("Topic {} grew to {} partitions in the offline cluster, as its live topic did", topic, partitions);
    }

    private int awaitPartitions(String topic, int atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS);
        while (System.nanoTime() < deadline) {
            int partitions = partitionCount(topic);
            if (partitions >= atLeast) {
                return partitions;
            }
            Thread.sleep(100);
        }
        throw new MirrorException("Topic " + topic + " did not have " + atLeast + " partitions in the offline cluster within "
            + TIMEOUT_MS + " ms");
    }

    @Override
    public void close() {
        metadata.close();
        client.close();
    }
}
