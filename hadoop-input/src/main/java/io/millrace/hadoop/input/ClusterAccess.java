package io.millrace.hadoop.input;

import io.millrace.common.TopicPartition;
import io.millrace.common.client.CommonClientConfigs;
import io.millrace.common.client.Cluster;
import io.millrace.common.client.Metadata;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.config.ConfigException;
import io.millrace.common.errors.TimeoutException;
import io.millrace.common.protocol.types.Uuids;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.PartitionReader;
import io.millrace.hadoop.LoadConfig;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * One connection set to the cluster for the loader: the metadata (to list topics) and a
 * {@link PartitionReader} over the same network client. The consumer settings given to the loader
 * (fetch sizes, timeouts) apply to the reader. Close it when done.
 */
public final class ClusterAccess implements AutoCloseable {

    private final NetworkClient client;
    private final Metadata metadata;
    private final PartitionReader reader;
    private final int requestTimeoutMs;

    public ClusterAccess(LoadConfig config) {
        ConsumerConfig consumer = new ConsumerConfig(config.originals());
        this.requestTimeoutMs = consumer.getInt(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG);
        this.client = new NetworkClient(CommonClientConfigs.networkOptions(consumer, "millrace-loader"));
        try {
            this.metadata = new Metadata(client, CommonClientConfigs.bootstrap(consumer),
                consumer.getLong(CommonClientConfigs.RETRY_BACKOFF_MS_CONFIG),
                consumer.getLong(CommonClientConfigs.METADATA_MAX_AGE_MS_CONFIG));
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
        this.reader = new PartitionReader(consumer, client, metadata);
    }

    public PartitionReader reader() {
        return reader;
    }

    /**
     * Every partition of the named topics and of the topics matching {@code regex} (may be null), sorted.
     *
     * @throws ConfigException when a named topic does not exist
     */
    public List<TopicPartition> partitions(List<String> topics, Pattern regex) {
        Cluster cluster = allTopics();
        TreeSet<String> selected = new TreeSet<>();
        for (String topic : topics) {
            if (cluster.partitionCount(topic) <= 0) {
                throw new ConfigException("Topic " + topic + " does not exist; the cluster has " + new TreeSet<>(cluster.topics()));
            }
            selected.add(topic);
        }
        if (regex != null) {
            cluster.topics().stream().filter(t -> regex.matcher(t).matches()).forEach(selected::add);
        }
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : selected) {
            for (int p = 0; p < cluster.partitionCount(topic); p++) {
                partitions.add(new TopicPartition(topic, p));
            }
        }
        return partitions;
    }

    /**
     * The ids the cluster gave {@code topics} when they were last listed (by {@link #partitions}); topics
     * without an id (a broker that gives none) are absent.
     */
    public Map<String, String> topicIds(Collection<String> topics) {
        Cluster cluster = metadata.snapshot();
        Map<String, String> ids = new TreeMap<>();
        for (String topic : topics) {
            UUID id = cluster.topicId(topic);
            if (!Uuids.ZERO.equals(id)) {
                ids.put(topic, id.toString());
            }
        }
        return ids;
    }

    private Cluster allTopics() {
        try {
            return metadata.fetchAllTopics().get(requestTimeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TimeoutException("Interrupted while listing topics");
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {  // the JDK's, not Millrace's
            throw new TimeoutException("Could not list the cluster's topics within " + requestTimeoutMs + " ms: " + e);
        }
    }

    @Override
    public void close() {
        reader.close();
        metadata.close();
        client.close();
    }
}
