package io.millrace.broker.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.common.TopicPartition;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.Test;

public class UniformAssignorTest {

    private final ServerAssignor uniform = new UniformAssignor();

    private static void assertEachOnceAndBalanced(Map<String, Set<TopicPartition>> result, int partitions, int spread) {
        Set<TopicPartition> all = new HashSet<>();
        int min = Integer.MAX_VALUE;
        int max = 0;
        for (Set<TopicPartition> s : result.values()) {
            for (TopicPartition tp : s) {
                assertTrue("twice: " + tp, all.add(tp));
            }
            min = Math.min(min, s.size());
            max = Math.max(max, s.size());
        }
        assertEquals(partitions, all.size());
        assertTrue("counts from " + min + " to " + max, max - min <= spread);
    }

    @Test
    public void partitionsAreSpreadEvenlyAndAMemberJoiningMovesOnlyWhatItTakes() {
        Map<String, Set<String>> subs = new HashMap<>(Map.of("a", Set.of("t"), "b", Set.of("t"), "c", Set.of("t")));
        Map<String, Set<TopicPartition>> first = uniform.assign(subs, Map.of("t", 10), Map.of());
        assertEachOnceAndBalanced(first, 10, 1);
        subs.put("d", Set.of("t"));
        Map<String, Set<TopicPartition>> second = uniform.assign(subs, Map.of("t", 10), first);
        assertEachOnceAndBalanced(second, 10, 1);
        int moved = 0;
        for (String m : first.keySet()) {
            Set<TopicPartition> lost = new HashSet<>(first.get(m));
            lost.removeAll(second.get(m));
            moved += lost.size();
        }
        assertEquals("d takes two or three and nothing else moves", second.get("d").size(), moved);
    }

    @Test
    public void membersGetOnlyTopicsTheySubscribeTo() {
        Map<String, Set<TopicPartition>> result = uniform.assign(
            Map.of("a", Set.of("x"), "b", Set.of("x", "y"), "c", Set.of("y")), Map.of("x", 4, "y", 4), Map.of());
        assertEachOnceAndBalanced(result, 8, 1);
        result.get("a").forEach(tp -> assertEquals("x", tp.topic()));
        result.get("c").forEach(tp -> assertEquals("y", tp.topic()));
    }

    @Test
    public void rangeGivesConsecutivePartitionsOfEachTopic() {
        Map<String, Set<TopicPartition>> result = new RangeAssignor().assign(
            Map.of("a", Set.of("t"), "b", Set.of("t")), Map.of("t", 5), Map.of());
        assertEquals(Set.of(new TopicPartition("t", 0), new TopicPartition("t", 1), new TopicPartition("t", 2)), result.get("a"));
        assertEquals(Set.of(new TopicPartition("t", 3), new TopicPartition("t", 4)), result.get("b"));
    }
}
