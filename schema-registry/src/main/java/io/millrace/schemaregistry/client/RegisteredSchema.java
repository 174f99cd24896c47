package io.millrace.schemaregistry.client;

import org.apache.avro.Schema;

/** A schema as one version of a subject, as the registry returns it. */
public record RegisteredSchema(String subject, int version, int id, Schema schema) {
}
