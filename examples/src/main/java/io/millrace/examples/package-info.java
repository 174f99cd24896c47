/**
 * Runnable, self-contained examples. Each starts its own ZooKeeper and broker in this JVM
 * ({@link io.millrace.broker.tools.LocalCluster}), does one thing over the Kafka wire protocol, and
 * stops them again. {@link io.millrace.examples.QuickstartDemo} is what {@code bin/millrace demo}
 * runs. Until Millrace has its own producer and consumer, requests go through
 * {@link io.millrace.examples.SimpleKafkaClient}, a blocking client small enough to read in one
 * sitting. Examples print to the console; everything they call logs through SLF4J.
 */
package io.millrace.examples;
