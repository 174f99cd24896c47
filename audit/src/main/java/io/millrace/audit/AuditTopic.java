package io.millrace.audit;

import io.millrace.common.client.CommonClientConfigs;
import io.millrace.common.client.Metadata;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.client.TopicCreation;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.CreateTopicsResponse;
import io.millrace.producer.ProducerConfig;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes sure the audit topic exists before the first record goes to it, creating it (CreateTopics,
 * the broker's default partition count) when it does not: the producer does not ask brokers to
 * create topics, and a counting client should not need an operator step to start.
 */
final class AuditTopic implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AuditTopic.class);
    private static final int TIMEOUT_MS = 10_000;

    private final String topic;
    private final NetworkClient client;
    private final Metadata metadata;
    private volatile boolean exists;

    AuditTopic(String topic, Map<String, ?> clientSettings) {
        this.topic = topic;
        ProducerConfig config = new ProducerConfig(clientSettings);
        this.client = new NetworkClient(CommonClientConfigs.networkOptions(config, "millrace-audit-admin"));
        this.metadata = new Metadata(client, CommonClientConfigs.bootstrap(config),
            config.getLong(CommonClientConfigs.RETRY_BACKOFF_MS_CONFIG), 60_000L);
    }

    /** Whether the topic exists now, creating it if it does not; false when the cluster cannot be reached. */
    boolean ensure() throws InterruptedException {
        if (exists) {
            return true;
        }
        try {
            if (metadata.fetchAllTopics().get(TIMEOUT_MS, TimeUnit.MILLISECONDS).partitionCount(topic) <= 0) {
                create();
            }
            exists = metadata.fetchAllTopics().get(TIMEOUT_MS, TimeUnit.MILLISECONDS).partitionCount(topic) > 0;
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            LOG.debug("Cannot check the audit topic {} now: {}", topic, e.toString());
        }
        return exists;
    }

    private void create() throws InterruptedException, ExecutionException, TimeoutException {
        CreateTopicsResponse.CreatableTopicResult result =
            TopicCreation.create(client, metadata, topic, -1, Map.of(), TIMEOUT_MS);
        if (result.error() == Errors.NONE) {
            LOG.info("Created the audit topic {}", topic);
        } else if (result.error() != Errors.TOPIC_ALREADY_EXISTS) {
            LOG.warn("Cannot create the audit topic {}: {} {}", topic, result.error(), result.errorMessage());
        }
    }

    @Override
    public void close() {
        metadata.close();
        client.close();
    }
}
