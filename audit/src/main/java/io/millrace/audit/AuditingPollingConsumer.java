package io.millrace.audit;

import io.millrace.common.serialization.ByteArrayDeserializer;
import io.millrace.common.serialization.Deserializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.consumer.PollingConsumer;
import io.millrace.consumer.RebalanceListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The poll-style group consumer ({@link PollingConsumer}) with its consumer tier as an option, as
 * {@link AuditingConsumer} is for the streams: with {@code audit.enabled=true} the records of a poll
 * are counted once they are processed (at the next {@link #poll}, {@link #markProcessed()} or
 * {@link #commit()}) and published once a commit covers them. Records whose key or value cannot be
 * decoded are left out of the poll's list, and counted as malformed. Not thread-safe: one polling
 * thread.
 */
public final class AuditingPollingConsumer<K, V> implements AutoCloseable {

    private final ConsumerAudit audit;
    private final PollingConsumer<byte[], byte[]> polling;
    private final RecordDecoder<K, V> decoder;
    private List<ConsumerRecord<byte[], byte[]>> polled = List.of();      // the last poll's, not yet processed
    private List<ConsumerRecord<byte[], byte[]>> malformed = List.of();   // the last poll left these out
    private List<ConsumerRecord<byte[], byte[]>> undecoded = List.of();   // polled, not decoded yet (the registry failed)

    /** As {@link PollingConsumer#PollingConsumer}; {@code maxRecords} bounds what one poll reads. */
    public AuditingPollingConsumer(ConsumerConfig config, Deserializer<K> keys, Deserializer<V> values, int maxRecords) {
        this.audit = new ConsumerAudit(config);
        try {
            this.polling = new PollingConsumer<>(audit.groupConfig(config), new ByteArrayDeserializer(),
                new ByteArrayDeserializer(), maxRecords);
        } catch (RuntimeException e) {
            audit.close();
            throw e;
        }
        audit.attach(polling.groupConsumer());
        this.decoder = new RecordDecoder<>(keys, values);
    }

    public void subscribe(Set<String> topics) {
        polling.subscribe(topics);
    }

    public void subscribe(String regex) {
        polling.subscribe(regex);
    }

    /**
     * As {@link PollingConsumer#poll}: the records that arrived within {@code timeout}, decoded; calling
     * it says the records of the previous poll are processed.
     */
    public List<ConsumerRecord<K, V>> poll(Duration timeout) throws InterruptedException {
        markProcessed();
        List<ConsumerRecord<byte[], byte[]>> raw = undecoded.isEmpty() ? polling.poll(timeout) : undecoded;
        undecoded = raw;   // kept while decoding may throw: decoded again at the next poll, never marked unread
        List<ConsumerRecord<K, V>> records = new ArrayList<>(raw.size());
        List<ConsumerRecord<byte[], byte[]>> skipped = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : raw) {
            ConsumerRecord<K, V> decoded = decoder.decode(record);
            if (decoded != null) {
                records.add(decoded);
            } else {
                skipped.add(record);
            }
        }
        undecoded = List.of();
        polled = raw;
        malformed = skipped;
        return records;
    }

    /** Commits everything returned by {@link #poll} so far, and releases its counts to the publisher. */
    public void commit() {
        markProcessed();
        audit.commit();
    }

    /** As {@link PollingConsumer#markProcessed()}: the records of the last poll are processed, without a commit. */
    public void markProcessed() {
        if (!undecoded.isEmpty()) {
            return;   // the last poll handed nothing out
        }
        polling.markProcessed();   // the offsets first: a commit that sees the counts then covers the records
        for (ConsumerRecord<byte[], byte[]> record : polled) {
            if (malformed.contains(record)) {
                audit.malformed(record);
            } else {
                audit.processed(record);
            }
        }
        polled = List.of();
        malformed = List.of();
    }

    public void seek(String topic, int partition, long offset) {
        polling.seek(topic, partition, offset);
    }

    /** As {@link io.millrace.consumer.GroupConsumer#setRebalanceListener}; the audit follows the commits it allows. */
    public void setRebalanceListener(RebalanceListener listener) {
        audit.setListener(java.util.Objects.requireNonNull(listener, "listener"));
    }

    /** The publisher of the counts (its metrics), or null with {@code audit.enabled=false}. */
    public AuditPublisher auditPublisher() {
        return audit.publisher();
    }

    /** Leaves the group, committing the records of every poll before the last, whose counts are then published. */
    @Override
    public void close() {
        audit.close();
    }
}
