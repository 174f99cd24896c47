package io.millrace.broker.cluster;

import io.millrace.common.errors.InvalidPartitionsException;
import io.millrace.common.errors.MillraceException;
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
 * the same broker. Partitions added to a topic later continue its round-robin from the broker of
 * its partition 0, so a topic grown over the same brokers is placed as if created at its new
 * size (a random start when that broker is gone). Not thread-safe (it owns a {@link Random}); the controller uses it from one thread.
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

    /**
     * Places the partitions from {@code current.size()} up to {@code count}: on the brokers of
     * {@code manual} (one per new partition, in order) if it is not empty, else round-robin.
     *
     * @throws io.millrace.common.errors.InvalidPartitionsException unless {@code count} exceeds the current count
     * @throws InvalidReplicaAssignmentException a manual assignment of the wrong length or naming brokers not live
     */
    SortedMap<Integer, Integer> assignAdditional(SortedMap<Integer, Integer> current, int count, List<Integer> manual,
                                                 List<Integer> liveBrokers) {
        validateAddition(current.size(), count, manual, liveBrokers);
        SortedMap<Integer, Integer> added = new TreeMap<>();
        if (!manual.isEmpty()) {
            for (int i = 0; i < manual.size(); i++) {
                added.put(current.size() + i, manual.get(i));
            }
            return added;
        }
        List<Integer> sorted = new ArrayList<>(liveBrokers);
        sorted.sort(null);
        int first = current.isEmpty() ? -1 : sorted.indexOf(current.get(current.firstKey()));
        int start = first >= 0 ? first : random.nextInt(sorted.size());
        for (int p = current.size(); p < count; p++) {
            added.put(p, sorted.get((start + p) % sorted.size()));
        }
        return added;
    }

    /**
     * Checks a partition increase from {@code currentCount} to {@code count}, with Kafka's errors and
     * messages; the requesting broker checks against its view, the controller again against ZooKeeper.
     */
    static void validateAddition(int currentCount, int count, List<Integer> manual, List<Integer> liveBrokers) {
        if (count < currentCount) {
            throw new InvalidPartitionsException("Topic currently has " + currentCount + " partitions, which is higher than "
                + "the requested " + count + ".");
        }
        if (count == currentCount) {
            throw new InvalidPartitionsException("Topic already has " + currentCount + " partitions.");
        }
        TopicAdmin.validatePartitions(count);
        if (!manual.isEmpty() && manual.size() != count - currentCount) {
            throw new InvalidReplicaAssignmentException("Increasing the number of partitions by " + (count - currentCount)
                + " but " + manual.size() + " assignments provided.");
        }
        List<Integer> unknown = manual.stream().filter(b -> !liveBrokers.contains(b)).distinct().sorted().toList();
        if (!unknown.isEmpty()) {
            throw new InvalidReplicaAssignmentException("Unknown broker(s) in replica assignment: " + unknown + ".");
        }
        if (liveBrokers.isEmpty()) {
            throw new MillraceException("No live brokers to assign the new partitions to");
        }
    }

    /** How many partitions each broker got; for logging. */
    static Map<Integer, Integer> countsByBroker(Map<Integer, Integer> assignment) {
        Map<Integer, Integer> counts = new TreeMap<>();
        assignment.values().forEach(b -> counts.merge(b, 1, Integer::sum));
        return counts;
    }
}
