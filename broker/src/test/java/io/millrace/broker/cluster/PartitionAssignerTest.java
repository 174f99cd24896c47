package io.millrace.broker.cluster;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.Test;

public class PartitionAssignerTest {

    @Test
    public void assignsConsecutivePartitionsToConsecutiveSortedBrokersFromTheStartIndex() {
        assertEquals(Map.of(0, 5, 1, 7, 2, 2, 3, 5, 4, 7), PartitionAssigner.assign(5, List.of(7, 2, 5), 1));
        assertEquals(Map.of(0, 2, 1, 5), PartitionAssigner.assign(2, List.of(7, 2, 5), 0));
    }

    @Test
    public void spreadsPartitionsEvenly() {
        Map<Integer, Integer> counts = PartitionAssigner.countsByBroker(PartitionAssigner.assign(10, List.of(1, 2, 3), 2));
        assertEquals(Map.of(1, 3, 2, 3, 3, 4), counts);
    }

    @Test
    public void startsAtDifferentBrokersFromTopicToTopic() {
        PartitionAssigner assigner = new PartitionAssigner(new Random(42));
        Set<Integer> firstBrokers = new HashSet<>();
        for (int topic = 0; topic < 50; topic++) {
            firstBrokers.add(assigner.assign(1, List.of(1, 2, 3)).get(0));
        }
        assertEquals(Set.of(1, 2, 3), firstBrokers);
    }

    @Test
    public void needsAtLeastOneBroker() {
        assertThrows(IllegalArgumentException.class, () -> new PartitionAssigner(new Random()).assign(1, List.of()));
    }

    @Test
    public void givesEveryPartitionToTheOnlyBroker() {
        assertTrue(PartitionAssigner.assign(3, List.of(4), 0).values().stream().allMatch(b -> b == 4));
    }
}
