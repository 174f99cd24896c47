package io.millrace.audit.kafka;

import io.millrace.audit.AuditCounter;
import io.millrace.audit.AuditPublisher;
import io.millrace.audit.AuditSettings;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * The producer tier's count for front-ends that keep Apache Kafka's Java producer (and Confluent's
 * serializers): add it to {@code interceptor.classes} and give the {@code audit.*} settings with the
 * producer's own. Each record is counted when the broker acknowledged it, in the window of the timestamp
 * it was stored with, with its serialized key and value bytes; a record that failed is counted as
 * failed. The counts go to the audit topic of the cluster the producer writes to ({@code bootstrap.servers})
 * through {@code schema.registry.url}, on a thread of the interceptor's own; the producer never waits
 * for it. {@code audit.tier} defaults to {@code producer} and {@code audit.application} to the
 * producer's {@code client.id}.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public final class AuditProducerInterceptor<K, V> implements ProducerInterceptor<K, V> {

    private AuditPublisher publisher;
    private AuditCounter counter;

    @Override
    public void configure(Map<String, ?> configs) {
        String clientId = AuditSettings.text(configs.get("client.id"));
        publisher = new AuditPublisher(AuditSettings.of(configs, "producer",
            clientId.isBlank() ? "kafka-producer" : clientId)).start();
        counter = publisher.counter();
    }

    @Override
    public ProducerRecord<K, V> onSend(ProducerRecord<K, V> record) {
        return record;
    }

    @Override
    public void onAcknowledgement(RecordMetadata metadata, Exception exception) {
        if (metadata == null || counter == null) {
            return;
        }
        if (exception != null) {
            counter.countFailed(metadata.topic(), metadata.hasTimestamp() ? metadata.timestamp() : System.currentTimeMillis());
            return;
        }
        long bytes = Math.max(0, metadata.serializedKeySize()) + Math.max(0, metadata.serializedValueSize());
        if (metadata.hasTimestamp() && metadata.timestamp() >= 0) {
            counter.count(metadata.topic(), metadata.timestamp(), bytes);
        } else {
            counter.countWithoutTime(metadata.topic(), bytes);
        }
    }

    /** Publishes every window, waits up to audit.close.timeout.ms for the acknowledgements. */
    @Override
    public void close() {
        if (publisher != null) {
            publisher.close();
        }
    }
}
