/**
 * Avro serializers and deserializers for record keys and values, in Confluent's wire format
 * (magic byte, 4-byte schema id, Avro binary: {@link io.millrace.schemaregistry.serde.WireFormat})
 * with schemas kept in the registry under {@code <topic>-value}, and the event header every tracked
 * event carries ({@link io.millrace.schemaregistry.serde.EventHeaders}). The serdes plug into any
 * producer or consumer that takes common's Serializer and Deserializer.
 */
package io.millrace.schemaregistry.serde;
