/**
 * The consumer-group comparison behind {@code bin/millrace bench-groups}: Kafka's own
 * {@code KafkaConsumer} in groups coordinated by a Millrace broker and by an Apache Kafka broker,
 * each in its own JVM, so that only the coordinator differs. It times joining, rebalancing and
 * committing offsets. {@link io.millrace.bench.groups.GroupBenchmark} is the entry point.
 */
package io.millrace.bench.groups;
