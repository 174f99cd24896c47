/**
 * The producer of tracked Avro events: it fills in each event's header (time, server, id) and
 * stamps the record with the event's time, then writes the value with the Avro serializer in
 * Confluent's wire format, its schema kept in the schema registry.
 */
package io.millrace.producer.avro;
