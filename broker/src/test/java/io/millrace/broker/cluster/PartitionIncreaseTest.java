package io.millrace.broker.cluster;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import io.millrace.common.errors.InvalidPartitionsException;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.Test;

/** Where the controller puts partitions added to a topic, and which increases it refuses. */
public class PartitionIncreaseTest {

    private final PartitionAssigner assigner = new PartitionAssigner(new Random(7));

    @Test
    public void addedPartitionsContinueTheTopicsRoundRobin() {
        SortedMap<Integer, Integer> created = PartitionAssigner.assign(2, List.of(1, 2, 3), 1);
        SortedMap<Integer, Integer> added = assigner.assignAdditionalLeaders(created, 5, List.of(), List.of(3, 1, 2));
        SortedMap<Integer, Integer> grown = new TreeMap<>(created);
        grown.putAll(added);
        assertEquals("as if created with five", PartitionAssigner.assign(5, List.of(1, 2, 3), 1), grown);
        assertEquals(Map.of(2, 1, 3, 2, 4, 3), added);
    }

    @Test
    public void aManualAssignmentIsFollowed() {
        SortedMap<Integer, Integer> current = new TreeMap<>(Map.of(0, 1));
        assertEquals(Map.of(1, 2, 2, 2), assigner.assignAdditionalLeaders(current, 3, List.of(2, 2), List.of(1, 2)));
    }

    @Test
    public void increasesThatCannotBeFollowedAreRefused() {
        assertEquals("Topic currently has 4 partitions, which is higher than the requested 3.", assertThrows(
            InvalidPartitionsException.class, () -> PartitionAssigner.validateAddition(4, 1, 3, List.of(), List.of(1))).getMessage());
        assertThrows(InvalidPartitionsException.class, () -> PartitionAssigner.validateAddition(4, 1, 4, List.of(), List.of(1)));
        assertThrows(InvalidPartitionsException.class, () -> PartitionAssigner.validateAddition(4, 1, 10_001, List.of(), List.of(1)));
        assertThrows(InvalidReplicaAssignmentException.class,
            () -> PartitionAssigner.validateAddition(1, 1, 3, List.of(List.of(1)), List.of(1)));
        assertEquals("Unknown broker(s) in replica assignment: [9].", assertThrows(InvalidReplicaAssignmentException.class,
            () -> PartitionAssigner.validateAddition(1, 1, 2, List.of(List.of(9)), List.of(1))).getMessage());
        assertThrows("another replication factor", InvalidReplicaAssignmentException.class,
            () -> PartitionAssigner.validateAddition(1, 2, 2, List.of(List.of(1)), List.of(1, 2)));
        assertEquals("Duplicate brokers not allowed in replica assignment: [1, 1].", assertThrows(
            InvalidReplicaAssignmentException.class,
            () -> PartitionAssigner.validateAddition(1, 2, 2, List.of(List.of(1, 1)), List.of(1, 2))).getMessage());
    }

    @Test
    public void aManualAssignmentOfReplicaListsIsFollowed() {
        SortedMap<Integer, List<Integer>> current = new TreeMap<>(Map.of(0, List.of(1, 2)));
        List<BrokerInfo> live = List.of(new BrokerInfo(1, "h", 1, null, 0), new BrokerInfo(2, "h", 2, null, 0),
            new BrokerInfo(3, "h", 3, null, 0));
        assertEquals(Map.of(1, List.of(3, 1), 2, List.of(2, 3)),
            assigner.assignAdditional(current, 3, List.of(List.of(3, 1), List.of(2, 3)), live));
    }
}
