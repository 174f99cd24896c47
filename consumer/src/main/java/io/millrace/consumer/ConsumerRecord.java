package io.millrace.consumer;

import io.millrace.common.TopicPartition;
import io.millrace.common.record.Header;
import java.util.List;

/**
 * One consumed message: where it came from (topic, partition, offset), its timestamp (the
 * producer's CreateTime, or the broker's LogAppendTime), its deserialized key and value (either
 * may be null) and its headers. Immutable when its key and value are.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public record ConsumerRecord<K, V>(String topic, int partition, long offset, long timestamp, K key, V value,
                                   List<Header> headers) {

    public ConsumerRecord {
        headers = List.copyOf(headers);
    }

    public TopicPartition topicPartition() {
        return new TopicPartition(topic, partition);
    }

    @Override
    public String toString() {
        return "ConsumerRecord(" + topic + "-" + partition + "@" + offset + ", timestamp=" + timestamp + ", key=" + key
            + ", value=" + value + ")";
    }
}
