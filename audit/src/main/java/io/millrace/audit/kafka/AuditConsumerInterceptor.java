package io.millrace.audit.kafka;

import io.millrace.audit.AuditPublisher;
import io.millrace.audit.AuditSettings;
import io.millrace.audit.UncommittedCounts;
import io.millrace.common.TopicPartition;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.config.ConfigException;

/**
 * A consumer group's tier for applications that keep Apache Kafka's Java consumer: add it to
 * {@code interceptor.classes} and give the {@code audit.*} settings with the consumer's own. The tier is
 * the consumer's {@code group.id}. Each record the consumer returns is counted, in the window of its
 * timestamp (records without one in the window of their arrival, in {@code noTimeCount}), with its
 * serialized key and value bytes; the counts are held until a commit covers the record's offset and
 * only then join the publisher's windows, so a consumer that crashes before its commit never publishes
 * what its successor reads again. Commit before giving partitions up (Kafka's auto-commit does; with
 * manual commits, in {@code onPartitionsRevoked}): an interceptor is not told of a rebalance, so the
 * counts of a partition given up uncommitted stay held, and would be released should the partition
 * come back and be committed past them. A record Kafka's consumer cannot deserialize fails its
 * {@code poll} before any interceptor sees it, so it is not counted here.
 *
 * <p>The counts go to the audit topic of the cluster the consumer reads ({@code bootstrap.servers})
 * through {@code schema.registry.url}, on a thread of the interceptor's own; {@code audit.application}
 * defaults to the group too (Kafka makes up a {@code client.id} per consumer instance, which would split
 * one application's counts). Kafka calls the interceptor on the polling thread.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public final class AuditConsumerInterceptor<K, V> implements ConsumerInterceptor<K, V> {

    private AuditPublisher publisher;
    private UncommittedCounts counts;

    @Override
    public void configure(Map<String, ?> configs) {
        String group = AuditSettings.text(configs.get("group.id"));
        if (group.isBlank()) {
            throw new ConfigException(getClass().getName() + " needs group.id: it counts what the group commits");
        }
        publisher = new AuditPublisher(AuditSettings.of(configs, group, group)).start();
        counts = new UncommittedCounts(publisher.counter());
    }

    @Override
    public ConsumerRecords<K, V> onConsume(ConsumerRecords<K, V> records) {
        for (ConsumerRecord<K, V> record : records) {
            long bytes = Math.max(0, record.serializedKeySize()) + Math.max(0, record.serializedValueSize());
            counts.count(new TopicPartition(record.topic(), record.partition()), record.offset(), record.timestamp(), bytes);
        }
        return records;
    }

    /** The records below each committed offset are counted for good: they join the publisher's windows. */
    @Override
    public void onCommit(Map<org.apache.kafka.common.TopicPartition, OffsetAndMetadata> offsets) {
        offsets.forEach((tp, committed) -> {
            if (committed != null) {
                counts.release(new TopicPartition(tp.topic(), tp.partition()), committed.offset());
            }
        });
    }

    /** Publishes every window of the committed counts, waits up to audit.close.timeout.ms for the acknowledgements. */
    @Override
    public void close() {
        if (publisher != null) {
            publisher.close();
        }
    }
}
