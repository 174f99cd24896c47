package io.millrace.producer.avro;

import io.millrace.common.client.PartitionInfo;
import io.millrace.common.serialization.Serializer;
import io.millrace.producer.Callback;
import io.millrace.producer.MillraceProducer;
import io.millrace.producer.Producer;
import io.millrace.producer.ProducerRecord;
import io.millrace.producer.RecordMetadata;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.serde.AvroSerializer;
import io.millrace.schemaregistry.serde.EventHeaders;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.avro.generic.IndexedRecord;

/**
 * The producer of tracked events: Avro records (GenericRecord or generated classes) that carry the
 * event header ({@link EventHeaders}). Before a record is sent it fills in the header's time (now),
 * server (this host) and id (a random UUID) where the application left them null, and it sends
 * the record with the header's time as its timestamp, so the broker's time index, retention and
 * the Hadoop partitioning all go by when the event happened. The value is written by
 * {@link AvroSerializer} in Confluent's wire format under the subject {@code <topic>-value}.
 *
 * <pre>{@code
 * Map<String, Object> props = Map.of("bootstrap.servers", "localhost:9092",
 *     "schema.registry.url", "http://localhost:8081", "auto.register.schemas", true);
 * try (AvroEventProducer<String, PageViewEvent> producer = new AvroEventProducer<>(props, new StringSerializer())) {
 *     producer.send(new ProducerRecord<>("page-views", memberKey, event));
 * }
 * }</pre>
 *
 * <p>A value whose schema has no required {@code header} field of type
 * {@code io.millrace.events.EventHeader}, or whose header is null, is refused with an
 * {@link IllegalArgumentException} from {@code send}; nothing is sent. Settings: the producer's,
 * plus {@link io.millrace.schemaregistry.serde.AvroSerdeConfig}'s. Thread-safe, as the producer it wraps.
 *
 * @param <K> the key type
 * @param <V> the event type
 */
public final class AvroEventProducer<K, V extends IndexedRecord> implements Producer<K, V> {

    private final Producer<K, V> producer;
    private final EventHeaders headers;

    /**
     * A producer whose values are written by an {@link AvroSerializer} configured from
     * {@code configs} (which then need {@code schema.registry.url}), with headers stamped by this host.
     */
    public AvroEventProducer(Map<String, ?> configs, Serializer<K> keySerializer) {
        this(new MillraceProducer<>(configs, keySerializer, new AvroSerializer<>()), EventHeaders.forThisHost());
    }

    /** As {@link #AvroEventProducer(Map, Serializer)}, sharing {@code registry} (and its caches). */
    public AvroEventProducer(Map<String, ?> configs, Serializer<K> keySerializer, SchemaRegistryClient registry) {
        this(new MillraceProducer<>(configs, keySerializer, new AvroSerializer<>(registry)), EventHeaders.forThisHost());
    }

    /** Wraps {@code producer}, whose value serializer must write Avro; {@code headers} fills the event headers. */
    public AvroEventProducer(Producer<K, V> producer, EventHeaders headers) {
        this.producer = producer;
        this.headers = headers;
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<K, V> record) {
        return send(record, null);
    }

    /**
     * Fills in the event's header and sends it with the header's time as its timestamp (a
     * timestamp given in {@code record} is replaced by it). See {@link Producer#send(ProducerRecord, Callback)}.
     *
     * @throws IllegalArgumentException when the value is not a tracked event (no header); nothing is sent
     */
    @Override
    public Future<RecordMetadata> send(ProducerRecord<K, V> record, Callback callback) {
        V event = record.value();
        if (event == null) {
            throw new IllegalArgumentException("A tracked event cannot be null (topic " + record.topic() + ")");
        }
        long eventTime = headers.fill(event);
        return producer.send(new ProducerRecord<>(record.topic(), record.partition(), eventTime, record.key(), event,
            record.headers()), callback);
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
