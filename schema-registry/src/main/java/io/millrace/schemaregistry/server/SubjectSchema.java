package io.millrace.schemaregistry.server;

/** A schema as one version of a subject: what GET /subjects/{subject}/versions/{version} returns. */
public record SubjectSchema(String subject, int version, int id, String schema) {
}
