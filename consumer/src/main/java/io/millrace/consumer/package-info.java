/**
 * Millrace's consumers: a reader of one partition's offset range, and the paper's group consumer
 * coordinated through ZooKeeper registries, both speaking the Kafka protocol.
 */
package io.millrace.consumer;
