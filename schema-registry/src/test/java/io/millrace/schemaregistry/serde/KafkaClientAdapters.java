package io.millrace.schemaregistry.serde;

import io.millrace.common.serialization.Deserializer;
import io.millrace.common.serialization.Serializer;

/**
 * Millrace's serializers seen as Apache Kafka's, so a test can send and fetch through a real broker
 * with Kafka's clients before Millrace's own producer and consumer are at hand.
 */
final class KafkaClientAdapters {

    private KafkaClientAdapters() {
    }

    static <T> org.apache.kafka.common.serialization.Serializer<T> serializer(Serializer<T> serializer) {
        return serializer::serialize;
    }

    static <T> org.apache.kafka.common.serialization.Deserializer<T> deserializer(Deserializer<T> deserializer) {
        return deserializer::deserialize;
    }
}
