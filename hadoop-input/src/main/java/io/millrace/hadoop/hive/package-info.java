/**
 * Hive tables over what the loader writes: {@link io.millrace.hadoop.hive.HiveTableDdl} turns a topic's
 * Avro schema (the latest version of its {@code <topic>-value} subject) into an external table
 * partitioned by the event hour, and {@link io.millrace.hadoop.hive.HivePartitions} adds the hours a load
 * wrote as partitions through plain JDBC. Nothing here depends on Hive's own jars: the Hive JDBC driver is
 * the user's, found on the classpath by {@link java.sql.DriverManager}. {@code bin/millrace hive-ddl} is
 * {@link io.millrace.hadoop.hive.HiveDdlCommand}.
 */
package io.millrace.hadoop.hive;
