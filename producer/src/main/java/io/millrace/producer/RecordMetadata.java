package io.millrace.producer;

import io.millrace.common.TopicPartition;

/**
 * Where an acknowledged record was written. With {@code acks=0} the broker answers nothing, so
 * the offset is unknown (-1).
 *
 * @param offset              the record's offset in its partition, or -1 if unknown
 * @param timestamp           the record's timestamp: its create time, or the broker's append time
 *                            when the topic stamps records with LogAppendTime
 * @param serializedKeySize   the key's size in bytes, -1 for a null key
 * @param serializedValueSize the value's size in bytes, -1 for a null value
 */
public record RecordMetadata(TopicPartition topicPartition, long offset, long timestamp,
                             int serializedKeySize, int serializedValueSize) {

    public static final long UNKNOWN_OFFSET = -1L;

    public String topic() {
        return topicPartition.topic();
    }

    public int partition() {
        return topicPartition.partition();
    }

    public boolean hasOffset() {
        return offset != UNKNOWN_OFFSET;
    }
}
