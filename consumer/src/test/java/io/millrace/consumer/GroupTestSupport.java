package io.millrace.consumer;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.TopicPartition;
import io.millrace.common.serialization.StringDeserializer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Consumers with test-friendly timings against a {@link LocalCluster}, closed together at the end. */
final class GroupTestSupport implements AutoCloseable {

    private final LocalCluster cluster;
    private final List<GroupConsumer<String, String>> consumers = new ArrayList<>();

    GroupTestSupport(LocalCluster cluster) {
        this.cluster = cluster;
    }

    Map<String, Object> settings(String group) {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", cluster.bootstrapServers());
        props.put("zookeeper.connect", cluster.zookeeperConnect());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "smallest");
        props.put(ConsumerConfig.REBALANCE_BACKOFF_MS_CONFIG, 200);
        props.put(ConsumerConfig.REBALANCE_MAX_RETRIES_CONFIG, 20);
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
        props.put(ConsumerConfig.AUTO_COMMIT_INTERVAL_MS_CONFIG, 500);
        props.put(ConsumerConfig.ZOOKEEPER_SESSION_TIMEOUT_MS_CONFIG, 6000);
        props.put("retry.backoff.ms", 100L);
        return props;
    }

    GroupConsumer<String, String> consumer(String group) {
        return consumer(settings(group));
    }

    synchronized GroupConsumer<String, String> consumer(Map<String, Object> settings) {
        GroupConsumer<String, String> consumer = new GroupConsumer<>(new ConsumerConfig(settings),
            new StringDeserializer(), new StringDeserializer());
        consumers.add(consumer);
        return consumer;
    }

    /** A consumer of {@code topic} with one stream, its stream read by a collector. */
    StreamCollector subscribe(GroupConsumer<String, String> consumer, String topic) {
        return new StreamCollector(consumer.createMessageStreams(Map.of(topic, 1)).get(topic));
    }

    /** Whether the consumers own every partition of a topic with {@code partitions} partitions exactly once. */
    static boolean ownEachOnce(List<GroupConsumer<String, String>> group, int partitions) {
        Set<TopicPartition> seen = new HashSet<>();
        int total = 0;
        for (GroupConsumer<String, String> consumer : group) {
            Set<TopicPartition> owned = consumer.ownedPartitions();
            total += owned.size();
            seen.addAll(owned);
        }
        return total == partitions && seen.size() == partitions;
    }

    @Override
    public synchronized void close() {
        consumers.forEach(GroupConsumer::close);
        consumers.clear();
    }
}
