package io.millrace.audit;

import io.millrace.common.client.PartitionInfo;
import io.millrace.producer.Callback;
import io.millrace.producer.MillraceProducer;
import io.millrace.producer.Producer;
import io.millrace.producer.ProducerRecord;
import io.millrace.producer.RecordMetadata;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Future;

/**
 * The producer tier's count: wraps a {@link Producer} (a {@code MillraceProducer}, or the one inside an
 * {@code AvroEventProducer}) and counts each record when the broker acknowledged it, in the window of
 * the timestamp it was stored with (the event header's time for Avro events), and each record that
 * failed for good separately. Counting happens at completion, so a record is never counted before the
 * broker has it; key and value bytes are the serialized sizes.
 *
 * <p>A {@link MillraceProducer} is counted a batch at a time through its {@link MillraceProducer#addListener
 * listener}, with nothing added to a send: every record it sends one by one from then on is counted,
 * whether through this wrapper or not, so wrap it once and send through the wrapper. Any other producer is
 * counted record by record, in a callback wrapped around each send.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public final class AuditingProducer<K, V> implements Producer<K, V> {

    private final Producer<K, V> producer;
    private final AuditCounter counter;
    /** Whether the producer counts through a listener, a batch at a time, so sends go through as they are. */
    private final boolean countsBatches;

    public AuditingProducer(Producer<K, V> producer, AuditCounter counter) {
        this.producer = producer;
        this.counter = counter;
        this.countsBatches = producer instanceof MillraceProducer<K, V>;
        if (producer instanceof MillraceProducer<K, V> millrace) {
            millrace.addListener(new AcknowledgedBatchCounter(counter));
        }
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<K, V> record) {
        return send(record, null);
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<K, V> record, Callback callback) {
        if (countsBatches) {
            return producer.send(record, callback);
        }
        String topic = record.topic();
        Long given = record.timestamp();
        return producer.send(record, (metadata, exception) -> {
            if (exception == null) {
                long stored = metadata.timestamp() >= 0 ? metadata.timestamp() : given == null ? -1 : given;
                long bytes = Math.max(0, metadata.serializedKeySize()) + Math.max(0, metadata.serializedValueSize());
                if (stored >= 0) {
                    counter.count(topic, stored, bytes);
                } else {
                    counter.countWithoutTime(topic, bytes);
                }
            } else {
                counter.countFailed(topic, given == null ? System.currentTimeMillis() : given);
            }
            if (callback != null) {
                callback.onCompletion(metadata, exception);
            }
        });
    }

    @Override
    public void flush() throws InterruptedException {
        producer.flush();
    }

    @Override
    public List<PartitionInfo> partitionsFor(String topic) throws InterruptedException {
        return producer.partitionsFor(topic);
    }

    @Override
    public void close(Duration timeout) {
        producer.close(timeout);
    }

    @Override
    public void close() {
        producer.close();
    }
}
