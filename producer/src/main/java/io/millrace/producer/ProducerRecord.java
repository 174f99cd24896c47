package io.millrace.producer;

import io.millrace.common.record.Header;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A record to send: a topic, optionally a partition and a timestamp, a key and a value (either may
 * be null) and headers. Without a partition the producer's partitioner chooses one: by the key's
 * hash when there is a key, otherwise the current sticky partition of the topic. Without a
 * timestamp the producer stamps the record with the time of {@code send}.
 *
 * <p>The header list may be added to by serializers while the record is sent; otherwise the record
 * is immutable.
 *
 * @param partition the partition, or null to let the partitioner choose
 * @param timestamp milliseconds since the epoch, or null for the time of sending
 */
public record ProducerRecord<K, V>(String topic, Integer partition, Long timestamp, K key, V value, List<Header> headers) {

    public ProducerRecord {
        Objects.requireNonNull(topic, "topic");
        if (partition != null && partition < 0) {
            throw new IllegalArgumentException("Invalid partition " + partition + ": partitions are numbered from 0");
        }
        if (timestamp != null && timestamp < 0) {
            throw new IllegalArgumentException("Invalid timestamp " + timestamp + ": it must not be negative");
        }
        headers = headers == null ? new ArrayList<>() : new ArrayList<>(headers);
    }

    public ProducerRecord(String topic, K key, V value) {
        this(topic, null, null, key, value, null);
    }

    public ProducerRecord(String topic, V value) {
        this(topic, null, null, null, value, null);
    }

    public ProducerRecord(String topic, Integer partition, K key, V value) {
        this(topic, partition, null, key, value, null);
    }
}
