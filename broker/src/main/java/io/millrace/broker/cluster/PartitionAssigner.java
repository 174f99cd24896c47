package io.millrace.broker.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Round-robin placement of a new topic's partitions over the live brokers, as Kafka's controller
 * does: sort the broker ids, pick a random start index, and give partition {@code p} to broker
 * {@code (start + p) mod n}. The random start keeps partition 0 of every topic from landing on
 * the same broker. Not thread-safe (it owns a {@link Random}); the controller uses it from one thread.
 */
final class PartitionAssigner {

    private final Random random;

    PartitionAssigner(Random random) {
        this.random = random;
    }

    SortedMap<Integer, Integer> assign(int partitions, List<Integer> liveBrokers) {
        if (liveBrokers.isEmpty()) {
            throw new IllegalArgumentException("No live brokers to assign partitions to");
        }
        return assign(partitions, liveBrokers, random.nextInt(liveBrokers.size()));
    }

    static SortedMap<Integer, Integer> assign(int partitions, List<Integer> liveBrokers, int startIndex) {
        List<Integer> sorted = new ArrayList<>(liveBrokers);
        sorted.sort(null);
        SortedMap<Integer, Integer> assignment = new TreeMap<>();
        for (int p = 0; p < partitions; p++) {
            assignment.put(p, sorted.get((startIndex + p) % sorted.size()));
        }
        return assignment;
    }

    /** How many partitions each broker got; for logging. */
    static Map<Integer, Integer> countsByBroker(Map<Integer, Integer> assignment) {
        Map<Integer, Integer> counts = new TreeMap<>();
        assignment.values().forEach(b -> counts.merge(b, 1, Integer::sum));
        return counts;
    }
}
