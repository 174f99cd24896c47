package io.millrace.common.serialization;

import io.millrace.common.record.Header;
import java.util.List;
import java.util.Map;

/**
 * Turns a record's key or value bytes back into an object, as Kafka's {@code Deserializer} does.
 * A deserializer that meets bytes it cannot read throws {@link SerializationException}, which names
 * the topic; the consumer then reports the record's partition and offset.
 *
 * @param <T> the type produced
 */
public interface Deserializer<T> extends AutoCloseable {

    /** Called once before the first {@link #deserialize}, with the consumer's whole configuration. */
    default void configure(Map<String, ?> configs, boolean isKey) {
    }

    /** The object {@code data} encodes; {@code data} is null for a null key or value. */
    T deserialize(String topic, byte[] data);

    /** As {@link #deserialize(String, byte[])}, with the record's headers at hand. */
    default T deserialize(String topic, List<Header> headers, byte[] data) {
        return deserialize(topic, data);
    }

    @Override
    default void close() {
    }
}
