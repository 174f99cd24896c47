package io.millrace.common.client;

/** One partition of a topic and the broker leading it; {@code leader} is null while it has none. */
public record PartitionInfo(String topic, int partition, Node leader) {
}
