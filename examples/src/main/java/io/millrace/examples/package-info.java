/**
 * Runnable, self-contained examples. Each starts its own ZooKeeper and broker in this JVM
 * ({@link io.millrace.broker.tools.LocalCluster}), does one thing over the Kafka wire protocol, and
 * stops them again. {@link io.millrace.examples.QuickstartDemo} is what {@code bin/millrace quickstart}
 * runs: page views produced with Millrace's producer ({@link io.millrace.examples.PageViewProducer})
 * and read back by a consumer group ({@link io.millrace.examples.GroupReader}). Examples print to
 * the console; everything they call logs through SLF4J.
 */
package io.millrace.examples;
