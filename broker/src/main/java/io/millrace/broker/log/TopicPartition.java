package io.millrace.broker.log;

/** A partition of a topic: the unit a log directory stores. Immutable. */
public record TopicPartition(String topic, int partition) {

    @Override
    public String toString() {
        return topic + "-" + partition;
    }
}
