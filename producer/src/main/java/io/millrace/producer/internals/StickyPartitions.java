package io.millrace.producer.internals;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The partition each topic's records without a key currently go to. It changes only when that
 * partition's batch is full, so keyless records fill a few large batches instead of spreading
 * thin across every partition. Thread-safe.
 */
final class StickyPartitions {

    private final Map<String, Integer> current = new ConcurrentHashMap<>();

    /** The topic's sticky partition, chosen at random the first time. */
    int partition(String topic, int partitionCount) {
        Integer partition = current.get(topic);
        if (partition != null && partition < partitionCount) {
            return partition;
        }
        int chosen = ThreadLocalRandom.current().nextInt(partitionCount);
        current.put(topic, chosen);
        return chosen;
    }

    /**
     * Moves the topic away from {@code full}, its partition whose batch just filled up, to
     * another one at random; if another thread already moved it, keeps that thread's choice.
     */
    int next(String topic, int partitionCount, int full) {
        if (partitionCount == 1) {
            return 0;
        }
        int other = ThreadLocalRandom.current().nextInt(partitionCount - 1);
        int chosen = other >= full ? other + 1 : other;
        return current.compute(topic, (t, now) -> now == null || now == full ? chosen : now);
    }
}
