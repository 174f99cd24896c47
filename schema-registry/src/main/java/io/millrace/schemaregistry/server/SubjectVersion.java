package io.millrace.schemaregistry.server;

/** One version of a subject as stored: its number, the id of its schema, and whether it is soft-deleted. */
public record SubjectVersion(int version, int id, boolean deleted) {
}
