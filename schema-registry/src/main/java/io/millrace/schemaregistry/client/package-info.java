/**
 * The caching client of the schema registry's REST API: id -&gt; schema and subject + schema -&gt; id
 * lookups cost one request each and are then answered from memory; requests are retried on
 * connection errors and 5xx answers. It works with Millrace's registry and with Confluent's.
 */
package io.millrace.schemaregistry.client;
