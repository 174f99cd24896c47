/**
 * The broker comparison behind {@code bin/millrace bench}: the same client workloads against a
 * Millrace broker and an Apache Kafka broker, each in its own JVM, run after run in alternation.
 * {@link io.millrace.bench.compare.BrokerComparison} is the entry point.
 */
package io.millrace.bench.compare;
