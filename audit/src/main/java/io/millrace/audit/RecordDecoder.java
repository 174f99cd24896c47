package io.millrace.audit;

import io.millrace.common.serialization.Deserializer;
import io.millrace.common.serialization.SerializationException;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.schemaregistry.client.SchemaRegistryClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes what the audited group consumer reads as bytes: reading bytes underneath is how it knows a
 * record's serialized size, and can tell a record that cannot be decoded from the others. A
 * {@link SerializationException} is the record's fault and makes it malformed, except when the schema
 * registry could not be asked (no answer, or a server error): that failure is the registry's, so it is
 * thrown, as the plain group consumer throws it, and the record is decoded again on the next attempt.
 */
final class RecordDecoder<K, V> {

    private static final Logger LOG = LoggerFactory.getLogger(RecordDecoder.class);

    private final Deserializer<K> keys;
    private final Deserializer<V> values;

    RecordDecoder(Deserializer<K> keys, Deserializer<V> values) {
        this.keys = keys;
        this.values = values;
    }

    /** The record decoded, or null when its key or value cannot be read (logged). */
    ConsumerRecord<K, V> decode(ConsumerRecord<byte[], byte[]> raw) {
        try {
            K key = keys.deserialize(raw.topic(), raw.headers(), raw.key());
            V value = values.deserialize(raw.topic(), raw.headers(), raw.value());
            return new ConsumerRecord<>(raw.topic(), raw.partition(), raw.offset(), raw.timestamp(), key, value,
                raw.headers());
        } catch (SerializationException e) {
            if (registryUnavailable(e)) {
                throw e;
            }
            LOG.warn("Skipping the record at offset {} of {}-{}, counted as malformed: {}", raw.offset(), raw.topic(),
                raw.partition(), e.getMessage());
            return null;
        }
    }

    private static boolean registryUnavailable(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SchemaRegistryClientException registry) {
                return registry.status() == 0 || registry.status() >= 500;
            }
        }
        return false;
    }

    /** The serialized key and value bytes of a record read as bytes. */
    static long bytes(ConsumerRecord<byte[], byte[]> raw) {
        return (raw.key() == null ? 0 : raw.key().length) + (raw.value() == null ? 0 : raw.value().length);
    }
}
