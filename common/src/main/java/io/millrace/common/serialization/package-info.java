/**
 * Serializers and deserializers for record keys and values, shared by the producer, the consumer
 * and the Avro serdes; the interfaces mirror Kafka's so existing implementations port easily.
 */
package io.millrace.common.serialization;
