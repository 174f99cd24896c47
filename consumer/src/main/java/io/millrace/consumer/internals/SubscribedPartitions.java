package io.millrace.consumer.internals;

import io.millrace.common.client.Cluster;
import io.millrace.common.client.Metadata;
import io.millrace.common.errors.TimeoutException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The partition counts of the topics a consumer subscribes to, from the Metadata API: a named topic
 * is tracked and refreshed, a regular expression is matched against every topic of the cluster.
 * Topics that do not exist (yet) are left out. Thread-safe.
 */
public final class SubscribedPartitions implements Rebalancer.TopicPartitionSource {

    private final Metadata metadata;
    private final long timeoutMs;

    public SubscribedPartitions(Metadata metadata, long timeoutMs) {
        this.metadata = metadata;
        this.timeoutMs = timeoutMs;
    }

    @Override
    public Map<String, Integer> partitionCounts(ConsumerRegistration me) {
        Cluster cluster = me.whiteList() ? fetchAll() : refresh(me);
        Map<String, Integer> counts = new TreeMap<>();
        for (String topic : me.whiteList() ? cluster.topics() : me.subscription().keySet()) {
            int count = cluster.partitionCount(topic);
            if (count > 0 && me.streamsFor(topic) > 0) {
                counts.put(topic, count);
            }
        }
        if (me.whiteList()) {
            metadata.addTopics(counts.keySet());   // so that the fetchers find the matched topics' leaders
        }
        return counts;
    }

    private Cluster refresh(ConsumerRegistration me) {
        metadata.addTopics(me.subscription().keySet());
        return await(metadata.requestUpdate());
    }

    private Cluster fetchAll() {
        return await(metadata.fetchAllTopics());
    }

    private Cluster await(java.util.concurrent.CompletableFuture<Cluster> update) {
        try {
            return update.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TimeoutException("Interrupted while waiting for metadata");
        } catch (Exception e) {
            throw new TimeoutException("No metadata within " + timeoutMs + " ms: " + LeaderRetry.unwrap(e));
        }
    }
}
