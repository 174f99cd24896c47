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
 * Placement of a new topic's partitions and their replicas over the live brokers, as Kafka's
 * controller does it ({@link ReplicaPlacement} has the rules): leaders round-robin from a random
 * start index, so that partition 0 of every topic does not land on the same broker, and
 * followers from a random shift. Partitions added to a topic later continue its round-robin from
 * the leader of its partition 0, so a topic grown over the same brokers has its leaders placed as
 * if created at its new size (a random start when that broker is gone), with the topic's
 * replication factor. Not thread-safe (it owns a {@link Random}); the controller uses it from one
 * thread.
 */
final class PartitionAssigner {

    private final Random random;

    PartitionAssigner(Random random) {
        this.random = random;
    }

    /** Replica lists for a new topic, {@code replicationFactor} distinct brokers per partition. */
    SortedMap<Integer, List<Integer>> assign(int partitions, int replicationFactor, List<BrokerInfo> liveBrokers) {
        if (liveBrokers.isEmpty()) {
            throw new IllegalArgumentException("No live brokers to assign partitions to");
        }
        ReplicaPlacement.validate(replicationFactor, liveBrokers.size());
        return ReplicaPlacement.place(0, partitions, replicationFactor, liveBrokers, random.nextInt(liveBrokers.size()),
            random.nextInt(liveBrokers.size()));
    }

    /** One replica per partition over brokers without racks: partition -> broker. */
    SortedMap<Integer, Integer> assign(int partitions, List<Integer> liveBrokers) {
        if (liveBrokers.isEmpty()) {
            throw new IllegalArgumentException("No live brokers to assign partitions to");
        }
        return assign(partitions, liveBrokers, random.nextInt(liveBrokers.size()));
    }

    /** Round-robin over the sorted ids from {@code startIndex}, one replica per partition: partition -> broker. */
    static SortedMap<Integer, Integer> assign(int partitions, List<Integer> liveBrokers, int startIndex) {
        return leaders(ReplicaPlacement.place(0, partitions, 1, withoutRacks(liveBrokers), startIndex, 0));
    }

    /**
     * Replica lists for the partitions from {@code current.size()} up to {@code count}, with as
     * many replicas as partition 0 has: those of {@code manual} (one list per new partition, in
     * order) if it is not empty, else placed as above.
     *
     * @throws io.millrace.common.errors.InvalidPartitionsException unless {@code count} exceeds the current count
     * @throws InvalidReplicaAssignmentException a manual assignment of the wrong length, naming brokers not live or twice,
     *     or with another number of replicas than the topic's
     * @throws InvalidReplicationFactorException fewer live brokers than the topic's replication factor
     */
    SortedMap<Integer, List<Integer>> assignAdditional(SortedMap<Integer, List<Integer>> current, int count,
                                                       List<List<Integer>> manual, List<BrokerInfo> liveBrokers) {
        List<Integer> live = liveBrokers.stream().map(BrokerInfo::id).toList();
        int replicationFactor = current.isEmpty() ? 1 : current.get(current.firstKey()).size();
        validateAddition(current.size(), replicationFactor, count, manual, live);
        SortedMap<Integer, List<Integer>> added = new TreeMap<>();
        if (!manual.isEmpty()) {
            for (int i = 0; i < manual.size(); i++) {
                added.put(current.size() + i, manual.get(i));
            }
            return added;
        }
        List<BrokerInfo> order = ReplicaPlacement.order(liveBrokers);
        int first = -1;
        if (!current.isEmpty()) {
            int leader0 = current.get(current.firstKey()).get(0);
            first = java.util.stream.IntStream.range(0, order.size()).filter(i -> order.get(i).id() == leader0).findFirst().orElse(-1);
        }
        int start = first >= 0 ? first : random.nextInt(order.size());
        return ReplicaPlacement.place(current.size(), count - current.size(), replicationFactor, liveBrokers, start,
            random.nextInt(order.size()));
    }

    /** {@link #assignAdditional} for a topic with one replica per partition over brokers without racks: partition -> broker. */
    SortedMap<Integer, Integer> assignAdditionalLeaders(SortedMap<Integer, Integer> current, int count, List<Integer> manual,
                                                        List<Integer> liveBrokers) {
        SortedMap<Integer, List<Integer>> lists = new TreeMap<>();
        current.forEach((p, broker) -> lists.put(p, List.of(broker)));
        List<List<Integer>> manualLists = manual.stream().map(List::of).toList();
        return leaders(assignAdditional(lists, count, manualLists, withoutRacks(liveBrokers)));
    }

    private static List<BrokerInfo> withoutRacks(List<Integer> ids) {
        return ids.stream().map(id -> new BrokerInfo(id, "", 0, null, -1)).toList();
    }

    private static SortedMap<Integer, Integer> leaders(SortedMap<Integer, List<Integer>> replicas) {
        SortedMap<Integer, Integer> leaders = new TreeMap<>();
        replicas.forEach((p, ids) -> leaders.put(p, ids.get(0)));
        return leaders;
    }

    /**
     * Checks a partition increase from {@code currentCount} to {@code count} of a topic with
     * {@code replicationFactor} replicas per partition, with Kafka's errors and messages; the
     * requesting broker checks against its view, the controller again against ZooKeeper.
     */
    static void validateAddition(int currentCount, int replicationFactor, int count, List<List<Integer>> manual,
                                 List<Integer> liveBrokers) {
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
        for (List<Integer> replicas : manual) {
            if (replicas.size() != replicationFactor) {
                throw new InvalidReplicaAssignmentException("Inconsistent replication factor: the topic has " + replicationFactor
                    + " replicas per partition, an assignment names " + replicas);
            }
            if (replicas.stream().distinct().count() != replicas.size()) {
                throw new InvalidReplicaAssignmentException("Duplicate brokers not allowed in replica assignment: " + replicas + ".");
            }
        }
        List<Integer> unknown = manual.stream().flatMap(List::stream).filter(b -> !liveBrokers.contains(b)).distinct().sorted()
            .toList();
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

    /** How many partitions each broker leads and follows, as "id: leads/replicas"; for logging. */
    static Map<Integer, String> loadByBroker(Map<Integer, List<Integer>> replicas) {
        Map<Integer, int[]> load = new TreeMap<>();
        replicas.values().forEach(ids -> {
            load.computeIfAbsent(ids.get(0), b -> new int[2])[0]++;
            ids.forEach(b -> load.computeIfAbsent(b, x -> new int[2])[1]++);
        });
        Map<Integer, String> text = new TreeMap<>();
        load.forEach((b, counts) -> text.put(b, counts[0] + "/" + counts[1]));
        return text;
    }
}
