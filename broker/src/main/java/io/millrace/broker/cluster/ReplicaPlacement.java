package io.millrace.broker.cluster;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Where the replicas of new partitions go, as a pure function of the live brokers, a start index
 * and a follower shift (the controller draws the two at random per topic).
 *
 * <p>The brokers are put in one order: by id, or, when every broker has a rack, taking one broker
 * from each rack in turn (racks by name, brokers by id within a rack), so that neighbours in the
 * order sit on different racks. Partition {@code p}'s leader is the broker at {@code start + p}
 * in that order, which spreads leaders evenly. Its followers come from the brokers after the
 * leader, walked from an offset ({@code shift}, plus one more for each full round of partitions
 * over the brokers) so that the followers of one broker's partitions are spread over the others
 * rather than always being its neighbours. Each follower is the first broker in that walk whose
 * rack holds the fewest replicas of the partition so far: a partition spans as many racks as it
 * can before a rack gets a second replica. With one replica per partition the leaders are exactly
 * those of round-robin placement over the sorted ids.
 */
final class ReplicaPlacement {

    private ReplicaPlacement() {
    }

    /**
     * Replica lists for partitions {@code first} to {@code first + count - 1}.
     *
     * @throws InvalidReplicationFactorException when {@code replicationFactor} is below 1 or above the number of brokers
     */
    static SortedMap<Integer, List<Integer>> place(int first, int count, int replicationFactor, List<BrokerInfo> brokers, int start,
                                                   int shift) {
        validate(replicationFactor, brokers.size());
        List<BrokerInfo> order = order(brokers);
        int n = order.size();
        SortedMap<Integer, List<Integer>> replicas = new TreeMap<>();
        for (int p = first; p < first + count; p++) {
            int leader = Math.floorMod(start + p, n);
            replicas.put(p, replicasOf(order, leader, shift + p / n, replicationFactor));
        }
        return replicas;
    }

    static void validate(int replicationFactor, int brokers) {
        if (replicationFactor < 1) {
            throw new InvalidReplicationFactorException("Replication factor must be larger than 0, got " + replicationFactor + ".");
        }
        if (replicationFactor > brokers) {
            throw new InvalidReplicationFactorException("Replication factor: " + replicationFactor
                + " larger than available brokers: " + brokers + ".");
        }
    }

    /** Whether placement spreads replicas over racks: every broker names one. */
    static boolean rackAware(List<BrokerInfo> brokers) {
        return !brokers.isEmpty() && brokers.stream().allMatch(b -> b.rack() != null);
    }

    /** The brokers in placement order: by id, or alternating racks when every broker has one. */
    static List<BrokerInfo> order(List<BrokerInfo> brokers) {
        List<BrokerInfo> byId = new ArrayList<>(brokers);
        byId.sort(Comparator.comparingInt(BrokerInfo::id));
        if (!rackAware(byId)) {
            return byId;
        }
        List<List<BrokerInfo>> racks = new ArrayList<>(byId.stream()
            .collect(Collectors.groupingBy(BrokerInfo::rack, TreeMap::new, Collectors.toList())).values());
        List<BrokerInfo> order = new ArrayList<>(byId.size());
        for (int round = 0; order.size() < byId.size(); round++) {
            for (List<BrokerInfo> rack : racks) {
                if (round < rack.size()) {
                    order.add(rack.get(round));
                }
            }
        }
        return order;
    }

    private static List<Integer> replicasOf(List<BrokerInfo> order, int leader, int shift, int replicationFactor) {
        int n = order.size();
        List<BrokerInfo> chosen = new ArrayList<>(replicationFactor);
        chosen.add(order.get(leader));
        Map<String, Integer> perRack = new HashMap<>();
        count(perRack, order.get(leader));
        for (int slot = 1; slot < replicationFactor; slot++) {
            BrokerInfo best = null;
            for (int k = 0; k < n - 1; k++) {
                BrokerInfo candidate = order.get((leader + 1 + Math.floorMod(shift + k, n - 1)) % n);
                if (!chosen.contains(candidate) && (best == null || load(perRack, candidate) < load(perRack, best))) {
                    best = candidate;
                }
            }
            chosen.add(Objects.requireNonNull(best));
            count(perRack, best);
        }
        return chosen.stream().map(BrokerInfo::id).toList();
    }

    /** Replicas already on the broker's rack; brokers without a rack share none. */
    private static int load(Map<String, Integer> perRack, BrokerInfo broker) {
        return broker.rack() == null ? 0 : perRack.getOrDefault(broker.rack(), 0);
    }

    private static void count(Map<String, Integer> perRack, BrokerInfo broker) {
        if (broker.rack() != null) {
            perRack.merge(broker.rack(), 1, Integer::sum);
        }
    }
}
