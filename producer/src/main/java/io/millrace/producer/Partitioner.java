package io.millrace.producer;

import java.util.Map;

/**
 * Chooses the partition of a record that names none. Set one with {@code partitioner.class};
 * the default is {@link DefaultPartitioner}. Implementations must be thread-safe.
 */
public interface Partitioner extends AutoCloseable {

    /** Returned to let the producer place the record in the topic's sticky partition. */
    int UNASSIGNED = -1;

    /** Called once with the producer's configuration before the first {@link #partition}. */
    default void configure(Map<String, ?> configs) {
    }

    /**
     * @param keyBytes       the serialized key, null when there is no key
     * @param partitionCount how many partitions the topic has (at least 1)
     * @return a partition in {@code [0, partitionCount)}, or {@link #UNASSIGNED}
     */
    int partition(String topic, Object key, byte[] keyBytes, Object value, byte[] valueBytes, int partitionCount);

    @Override
    default void close() {
    }
}
