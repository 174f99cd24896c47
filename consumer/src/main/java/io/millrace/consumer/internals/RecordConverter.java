package io.millrace.consumer.internals;

import io.millrace.common.record.Header;
import io.millrace.common.record.Record;
import io.millrace.common.serialization.Deserializer;
import io.millrace.common.serialization.SerializationException;
import io.millrace.consumer.ConsumerRecord;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Turns a record view into a {@link ConsumerRecord} with the consumer's deserializers; the only
 * copies are the key and value bytes a deserializer takes. Thread-safe when the deserializers are.
 */
public final class RecordConverter<K, V> {

    private final Deserializer<K> keyDeserializer;
    private final Deserializer<V> valueDeserializer;

    public RecordConverter(Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer) {
        this.keyDeserializer = keyDeserializer;
        this.valueDeserializer = valueDeserializer;
    }

    public ConsumerRecord<K, V> convert(String topic, int partition, Record record) {
        List<Header> headers = record.headerCount() == 0 ? List.of() : List.of(record.headers());
        try {
            K key = keyDeserializer.deserialize(topic, headers, bytes(record.key()));
            V value = valueDeserializer.deserialize(topic, headers, bytes(record.value()));
            return new ConsumerRecord<>(topic, partition, record.offset(), record.timestamp(), key, value, headers);
        } catch (SerializationException e) {
            throw new SerializationException("Cannot deserialize the record at offset " + record.offset() + " of "
                + topic + "-" + partition + ": " + e.getMessage(), e);
        }
    }

    private static byte[] bytes(ByteBuffer buffer) {
        if (buffer == null) {
            return null;
        }
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }
}
