/**
 * The schema registry: maps schema ids to Avro schemas, serves the Confluent Schema Registry REST
 * API, keeps its state in ZooKeeper. The server is in {@code server}, the caching client in
 * {@code client}, the command-line entry points in {@code tools}.
 */
package io.millrace.schemaregistry;
