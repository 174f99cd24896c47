/**
 * Command-line programs around the producer: {@code bin/millrace console-producer} (lines from
 * stdin as records), {@code bin/millrace perf-producer} (throughput and latency, in the manner of
 * Kafka's producer performance test) and the generator of the producer's settings table in the
 * clients documentation. These classes print to the console; the library does not.
 */
package io.millrace.producer.tools;
