package io.millrace.broker.group;

import io.millrace.broker.cluster.MetadataCache;
import io.millrace.broker.log.LogManager;
import io.millrace.broker.replica.ReplicaManager;
import io.millrace.common.TopicPartition;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * What the group coordinator uses of its broker to keep commits in the offsets topic: the
 * metadata, the logs and replicas of this broker, how to create the topic, and whom to tell of an
 * append (fetches waiting on the partition).
 */
public record OffsetsTopicAccess(int brokerId, MetadataCache metadata, LogManager logs, ReplicaManager replicas,
                                 TopicCreator creator, Consumer<TopicPartition> onAppend) {

    /** Creates the offsets topic (the broker's topic admin). */
    public interface TopicCreator {
        CompletableFuture<Void> create(String topic, int partitions, int replicationFactor, Map<String, String> configs);
    }
}
