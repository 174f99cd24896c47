package io.millrace.audit;

import io.millrace.common.TopicPartition;
import io.millrace.common.serialization.ByteArrayDeserializer;
import io.millrace.common.serialization.Deserializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.GroupConsumer;
import io.millrace.consumer.MessageStream;
import io.millrace.consumer.OffsetResetListener;
import io.millrace.consumer.RebalanceListener;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The group consumer ({@link GroupConsumer}) with its consumer tier as an option: the same settings,
 * streams and operations, and with {@code audit.enabled=true} among the settings, a count of what the
 * group consumed, per topic and window of event time, under the tier of its {@code group.id}, published
 * once the offsets covering it are committed ({@link ConsumerAudit}). The other {@code audit.*}
 * settings and {@code schema.registry.url} come with the consumer's own; the counts go to the audit
 * topic of the cluster the consumer reads.
 *
 * <pre>
 * // config: the group consumer's settings, and audit.enabled=true, audit.cluster, schema.registry.url
 * AuditingConsumer&lt;String, GenericRecord&gt; consumer =
 *     new AuditingConsumer&lt;&gt;(config, new StringDeserializer(), new AvroDeserializer&lt;&gt;(registry));
 * AuditedStream&lt;String, GenericRecord&gt; stream = consumer.createMessageStreams(Map.of("page-views", 1)).get("page-views").get(0);
 * for (ConsumerRecord&lt;String, GenericRecord&gt; record : stream) { ... }   // counted once finished, published once committed
 * </pre>
 *
 * <p>Records are read as bytes and decoded here with the given deserializers, so that their serialized
 * size is known; a record whose key or value cannot be decoded is skipped (logged, and counted as
 * malformed), where the plain group consumer would throw. Thread-safe; each stream is meant for one
 * reading thread.
 */
public final class AuditingConsumer<K, V> implements AutoCloseable {

    private final ConsumerAudit audit;
    private final GroupConsumer<byte[], byte[]> group;
    private final RecordDecoder<K, V> decoder;

    /** As {@link GroupConsumer#GroupConsumer}: connects to ZooKeeper; nothing is consumed before the streams are made. */
    public AuditingConsumer(ConsumerConfig config, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer) {
        this.audit = new ConsumerAudit(config);
        try {
            this.group = new GroupConsumer<>(audit.groupConfig(config), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        } catch (RuntimeException e) {
            audit.close();
            throw e;
        }
        audit.attach(group);
        this.decoder = new RecordDecoder<>(keyDeserializer, valueDeserializer);
    }

    /** As {@link GroupConsumer#createMessageStreams}: per topic, its streams. May be called once. */
    public Map<String, List<AuditedStream<K, V>>> createMessageStreams(Map<String, Integer> streamsPerTopic) {
        Map<String, List<AuditedStream<K, V>>> byTopic = new LinkedHashMap<>();
        group.createMessageStreams(streamsPerTopic).forEach((topic, streams) -> byTopic.put(topic, audited(streams)));
        return byTopic;
    }

    /** As {@link GroupConsumer#createMessageStreamsByFilter}. May be called once. */
    public List<AuditedStream<K, V>> createMessageStreamsByFilter(String regex, int streams) {
        return audited(group.createMessageStreamsByFilter(regex, streams));
    }

    private List<AuditedStream<K, V>> audited(List<MessageStream<byte[], byte[]>> streams) {
        return streams.stream().map(stream -> new AuditedStream<>(stream, decoder, audit)).toList();
    }

    /**
     * Commits the processed offset of every partition this consumer owns, as {@link GroupConsumer#commit()},
     * and releases the counts of what was processed before it to the publisher.
     */
    public void commit() {
        audit.commit();
    }

    public void seek(String topic, int partition, long offset) {
        group.seek(topic, partition, offset);
    }

    public Set<TopicPartition> ownedPartitions() {
        return group.ownedPartitions();
    }

    public Map<TopicPartition, Long> lag() {
        return group.lag();
    }

    public String consumerId() {
        return group.consumerId();
    }

    /** As {@link GroupConsumer#setRebalanceListener}; the audit follows the commits the listener allows. */
    public void setRebalanceListener(RebalanceListener listener) {
        audit.setListener(java.util.Objects.requireNonNull(listener, "listener"));
    }

    public void setOffsetResetListener(OffsetResetListener listener) {
        group.setOffsetResetListener(listener);
    }

    /** The publisher of the counts (its metrics), or null with {@code audit.enabled=false}. */
    public AuditPublisher auditPublisher() {
        return audit.publisher();
    }

    /** How many processed records wait for a commit before they are counted. */
    long heldRecords() {
        return audit.heldRecords();
    }

    /**
     * Leaves the group as {@link GroupConsumer#close()} does, committing what was processed, whose counts
     * are then published with every window.
     */
    @Override
    public void close() {
        audit.close();
    }
}
