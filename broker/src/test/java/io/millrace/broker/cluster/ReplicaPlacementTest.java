package io.millrace.broker.cluster;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SortedMap;
import java.util.stream.IntStream;
import org.junit.Test;

public class ReplicaPlacementTest {

    @Test
    public void placesDistinctReplicasAndSpreadsLeadersAndReplicasEvenly() {
        List<BrokerInfo> brokers = brokers(null, null, null, null, null);
        SortedMap<Integer, List<Integer>> replicas = ReplicaPlacement.place(0, 10, 3, brokers, 3, 1);
        assertEquals(10, replicas.size());
        replicas.values().forEach(ids -> assertEquals("distinct " + ids, 3, new HashSet<>(ids).size()));
        Map<Integer, String> load = PartitionAssigner.loadByBroker(replicas);
        assertEquals(Map.of(0, "2/6", 1, "2/6", 2, "2/6", 3, "2/6", 4, "2/6"), load);
    }

    @Test
    public void followersOfOneBrokersPartitionsAreNotAlwaysTheSame() {
        SortedMap<Integer, List<Integer>> replicas = ReplicaPlacement.place(0, 8, 2, brokers(null, null, null, null), 0, 0);
        Set<Integer> followersOfZero = new HashSet<>();
        replicas.values().stream().filter(ids -> ids.get(0) == 0).forEach(ids -> followersOfZero.add(ids.get(1)));
        assertEquals(Set.of(1, 2), followersOfZero);
    }

    @Test
    public void oneReplicaPerPartitionIsRoundRobinOverTheSortedIds() {
        assertEquals(Map.of(0, 5, 1, 7, 2, 2, 3, 5, 4, 7), PartitionAssigner.assign(5, List.of(7, 2, 5), 1));
        SortedMap<Integer, List<Integer>> replicas = ReplicaPlacement.place(0, 3, 1, brokers(null, null), 1, 4);
        assertEquals(Map.of(0, List.of(1), 1, List.of(0), 2, List.of(1)), replicas);
    }

    @Test
    public void everyPartitionSpansAsManyRacksAsItHasReplicas() {
        List<BrokerInfo> brokers = brokers("a", "a", "b", "b", "c", "c");
        for (int start = 0; start < 6; start++) {
            for (int shift = 0; shift < 6; shift++) {
                SortedMap<Integer, List<Integer>> replicas = ReplicaPlacement.place(0, 12, 3, brokers, start, shift);
                replicas.forEach((p, ids) -> assertEquals("partition " + p + " " + ids, 3, racks(brokers, ids).size()));
                assertEquals(Map.of(0, "2/6", 1, "2/6", 2, "2/6", 3, "2/6", 4, "2/6", 5, "2/6"),
                    PartitionAssigner.loadByBroker(replicas));
            }
        }
    }

    @Test
    public void aRackWithFewBrokersStillGetsAReplicaOfEveryPartition() {
        List<BrokerInfo> brokers = brokers("a", "a", "a", "b");
        SortedMap<Integer, List<Integer>> replicas = ReplicaPlacement.place(0, 9, 2, brokers, 2, 1);
        replicas.forEach((p, ids) -> assertEquals("partition " + p + " " + ids, Set.of("a", "b"), racks(brokers, ids)));
    }

    @Test
    public void moreReplicasThanRacksPutsTheExtraOnesOnDifferentBrokers() {
        List<BrokerInfo> brokers = brokers("a", "a", "b", "b");
        ReplicaPlacement.place(0, 6, 3, brokers, 1, 0).values().forEach(ids -> {
            assertEquals(3, new HashSet<>(ids).size());
            assertEquals(Set.of("a", "b"), racks(brokers, ids));
        });
    }

    @Test
    public void ordersBrokersByRackInTurnOnlyWhenEveryBrokerHasARack() {
        assertEquals(List.of(0, 2, 4, 1, 3, 5), ids(ReplicaPlacement.order(brokers("a", "a", "b", "b", "c", "c"))));
        assertEquals(List.of(0, 1, 2), ids(ReplicaPlacement.order(brokers("a", null, "b"))));
    }

    @Test
    public void refusesReplicationFactorsThatCannotBePlaced() {
        assertEquals("Replication factor: 3 larger than available brokers: 2.", assertThrows(InvalidReplicationFactorException.class,
            () -> ReplicaPlacement.place(0, 1, 3, brokers(null, null), 0, 0)).getMessage());
        assertThrows(InvalidReplicationFactorException.class, () -> ReplicaPlacement.place(0, 1, 0, brokers((String) null), 0, 0));
        assertThrows(InvalidReplicationFactorException.class,
            () -> new PartitionAssigner(new Random(1)).assign(2, 4, brokers(null, null, null)));
    }

    @Test
    public void addedPartitionsContinueTheRoundRobinWithTheTopicsReplicationFactor() {
        PartitionAssigner assigner = new PartitionAssigner(new Random(3));
        List<BrokerInfo> brokers = brokers(null, null, null);
        SortedMap<Integer, List<Integer>> created = ReplicaPlacement.place(0, 2, 2, brokers, 1, 0);
        SortedMap<Integer, List<Integer>> added = assigner.assignAdditional(created, 5, List.of(), brokers);
        assertEquals(List.of(2, 3, 4), List.copyOf(added.keySet()));
        added.forEach((p, ids) -> {
            assertEquals(2, new HashSet<>(ids).size());
            assertEquals("leader as if created with five", (int) ReplicaPlacement.place(0, 5, 1, brokers, 1, 0).get(p).get(0), (int) ids.get(0));
        });
        assertThrows(InvalidReplicaAssignmentException.class, () -> assigner.assignAdditional(created, 3, List.of(List.of(0)), brokers));
    }

    private static List<BrokerInfo> brokers(String... racks) {
        return IntStream.range(0, racks.length).mapToObj(id -> new BrokerInfo(id, "h", 1, racks[id], 0)).toList();
    }

    private static Set<String> racks(List<BrokerInfo> brokers, List<Integer> ids) {
        Set<String> racks = new HashSet<>();
        ids.forEach(id -> racks.add(brokers.get(id).rack()));
        return racks;
    }

    private static List<Integer> ids(List<BrokerInfo> brokers) {
        return brokers.stream().map(BrokerInfo::id).toList();
    }
}
