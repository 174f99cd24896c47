/**
 * The demo's Hive stage ({@code bin/millrace demo --hive}): embedded Hive, its metastore in Derby and its
 * queries on MapReduce's LocalJobRunner, over the Avro files the demo's load wrote. The tables and their
 * partitions are made with the statements {@code bin/millrace hive-ddl} prints and a load registers, so what
 * the demo queries is what a user's Hive would see. Hive runs in a JVM of its own, from this module's
 * classpath: its jars never join the launcher's.
 */
package io.millrace.examples.hive;
