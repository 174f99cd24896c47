/**
 * The schema registry: maps schema ids to Avro schemas, serves the Confluent Schema Registry REST
 * API, keeps its state in ZooKeeper.
 */
package io.millrace.schemaregistry;
