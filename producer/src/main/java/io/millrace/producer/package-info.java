/**
 * Millrace's producer: batches records per partition and sends them to partition leaders over the
 * Kafka protocol, so it works against Millrace and Apache Kafka brokers alike.
 */
package io.millrace.producer;
