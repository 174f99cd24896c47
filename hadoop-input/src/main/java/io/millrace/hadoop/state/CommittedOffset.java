package io.millrace.hadoop.state;

import io.millrace.common.TopicPartition;

/**
 * The next offset to load of one partition: everything below it is in the data root, exactly once.
 *
 * @param topicId the id the topic had when it was read (see {@code Cluster.topicId}), or null when the
 *     broker gave none or the offset was committed before ids were kept. A topic whose id changed was
 *     deleted and created again: this offset belongs to data that is gone.
 */
public record CommittedOffset(String topic, int partition, long offset, String topicId) {

    public CommittedOffset(String topic, int partition, long offset) {
        this(topic, partition, offset, null);
    }

    public TopicPartition topicPartition() {
        return new TopicPartition(topic, partition);
    }
}
