package io.millrace.common;

import java.util.Objects;

/**
 * One partition of one topic: the unit of storage, of parallelism and of ownership. Printed as
 * Kafka does, {@code topic-partition}, which is also its log directory name. Immutable.
 */
public record TopicPartition(String topic, int partition) implements Comparable<TopicPartition> {

    public TopicPartition {
        Objects.requireNonNull(topic, "topic");
    }

    // Written out rather than left to the record's generated methods, whose method-handle chain showed
    // in producer profiles: a producer looks its partition's queue up by this key for every record.
    @Override
    public int hashCode() {
        return 31 * topic.hashCode() + partition;
    }

    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof TopicPartition other && partition == other.partition && topic.equals(other.topic);
    }

    @Override
    public int compareTo(TopicPartition other) {
        int byTopic = topic.compareTo(other.topic);
        return byTopic != 0 ? byTopic : Integer.compare(partition, other.partition);
    }

    @Override
    public String toString() {
        return topic + "-" + partition;
    }
}
