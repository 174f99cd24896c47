/**
 * The schema registry server: Confluent's Schema Registry REST API
 * ({@link io.millrace.schemaregistry.server.RegistryApi}) over Netty
 * ({@link io.millrace.schemaregistry.server.SchemaRegistryServer}), Avro schemas and their ids kept
 * in ZooKeeper ({@link io.millrace.schemaregistry.server.SchemaStore}, layout in
 * {@link io.millrace.schemaregistry.server.RegistryPaths}), compatibility checked with Avro's own
 * SchemaCompatibility ({@link io.millrace.schemaregistry.server.CompatibilityLevel}). Several
 * instances may share one ZooKeeper; they need no leader, since ZooKeeper's conditional writes
 * decide every race.
 */
package io.millrace.schemaregistry.server;
