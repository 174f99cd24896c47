/**
 * {@code bin/millrace bench-curves}: what a Millrace broker and an Apache Kafka broker cost as the load
 * grows (partitions, producers, idle connections, data to recover after a crash), one curve per figure,
 * both brokers in the same run and Kafka's client driving both.
 */
package io.millrace.bench.curves;
