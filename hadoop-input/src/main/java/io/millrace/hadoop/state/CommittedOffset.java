package io.millrace.hadoop.state;

import io.millrace.common.TopicPartition;

/** The next offset to load of one partition: everything below it is in the data root, exactly once. */
public record CommittedOffset(String topic, int partition, long offset) {

    public TopicPartition topicPartition() {
        return new TopicPartition(topic, partition);
    }
}
