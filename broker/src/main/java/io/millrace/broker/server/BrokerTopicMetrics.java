package io.millrace.broker.server;

import io.millrace.broker.network.Counter;
import io.millrace.broker.network.MetricGroup;
import io.millrace.broker.network.MetricsRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Traffic per topic and for all topics together, as Kafka's {@code BrokerTopicMetrics}:
 * {@code io.millrace:type=broker-topic-metrics,broker=<id>[,topic=<topic>]} with
 * {@code bytes-in-total} and {@code messages-in-total} (batches appended by Produce: their bytes and
 * records) and {@code bytes-out-total} (record bytes put into Fetch responses). A topic's group is
 * created on its first traffic and kept in a map, so the hot path is one lookup and a few
 * {@code LongAdder} additions.
 */
final class BrokerTopicMetrics {

    static final String GROUP = "broker-topic-metrics";

    private final MetricsRegistry registry;
    private final Topic all;
    private final Map<String, Topic> topics = new ConcurrentHashMap<>();

    BrokerTopicMetrics(MetricsRegistry registry) {
        this.registry = registry;
        this.all = new Topic(registry.group(GROUP));
    }

    /** An append of {@code records} records in {@code bytes} bytes to {@code topic}. */
    void appended(String topic, long bytes, long records) {
        Topic t = topic(topic);
        t.bytesIn.add(bytes);
        t.messagesIn.add(records);
        all.bytesIn.add(bytes);
        all.messagesIn.add(records);
    }

    /** {@code bytes} record bytes of {@code topic} handed to the network in a Fetch response. */
    void sent(String topic, long bytes) {
        if (bytes > 0) {
            topic(topic).bytesOut.add(bytes);
            all.bytesOut.add(bytes);
        }
    }

    /** Drops a deleted topic's group, so that JMX no longer shows it. */
    void remove(String topic) {
        Topic t = topics.remove(topic);
        if (t != null) {
            registry.remove(t.group);
        }
    }

    private Topic topic(String topic) {
        Topic t = topics.get(topic);
        return t != null ? t : topics.computeIfAbsent(topic, name -> new Topic(registry.group(GROUP, Map.of("topic", name))));
    }

    private static final class Topic {
        final MetricGroup group;
        final Counter bytesIn;
        final Counter messagesIn;
        final Counter bytesOut;

        Topic(MetricGroup group) {
            this.group = group;
            this.bytesIn = group.counter("bytes-in-total", "bytes of record batches appended by Produce requests");
            this.messagesIn = group.counter("messages-in-total", "records appended by Produce requests");
            this.bytesOut = group.counter("bytes-out-total", "record bytes sent in Fetch responses");
        }
    }
}
