package io.millrace.producer;

import io.millrace.producer.internals.Murmur2;

/**
 * Kafka's placement: a keyed record goes to {@code toPositive(murmur2(keyBytes)) % partitions},
 * so a key lands in the same partition as with Kafka's own clients; a record without a key is
 * left {@link Partitioner#UNASSIGNED}, and the producer puts it in the topic's sticky partition,
 * which changes whenever a batch for it is full (fewer, fuller batches than round robin).
 */
public final class DefaultPartitioner implements Partitioner {

    @Override
    public int partition(String topic, Object key, byte[] keyBytes, Object value, byte[] valueBytes, int partitionCount) {
        return keyBytes == null ? UNASSIGNED : partitionForKey(keyBytes, partitionCount);
    }

    /** The partition of a serialized key among {@code partitionCount} partitions. */
    public static int partitionForKey(byte[] keyBytes, int partitionCount) {
        return Murmur2.toPositive(Murmur2.hash(keyBytes)) % partitionCount;
    }
}
