package io.millrace.common.serialization;

import io.millrace.common.record.Header;
import java.util.List;
import java.util.Map;

/**
 * Turns a record's key or value into bytes, as Kafka's {@code Serializer} does: the producer calls
 * it on the sending thread, once per record, before the record is batched. Implementations must be
 * thread-safe if one instance is shared between producers.
 *
 * @param <T> the type serialized
 */
public interface Serializer<T> extends AutoCloseable {

    /**
     * Called once before the first {@link #serialize}, with the producer's whole configuration.
     *
     * @param isKey whether this instance serializes keys (true) or values (false)
     */
    default void configure(Map<String, ?> configs, boolean isKey) {
    }

    /** The bytes of {@code data}, or null for a null key or value. */
    byte[] serialize(String topic, T data);

    /** As {@link #serialize(String, Object)}; {@code headers} is the record's header list, which a serializer may add to. */
    default byte[] serialize(String topic, List<Header> headers, T data) {
        return serialize(topic, data);
    }

    @Override
    default void close() {
    }
}
