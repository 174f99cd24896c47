package io.millrace.common;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;
import org.junit.Test;

/** A topic partition is a map key on every path, so equality, hash and order must agree. */
public class TopicPartitionTest {

    @Test
    public void equalWhenTopicAndPartitionAreEqualWhateverTheStringInstance() {
        TopicPartition a = new TopicPartition("events", 3);
        TopicPartition b = new TopicPartition(new String("events".toCharArray()), 3);
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertNotEquals(a, new TopicPartition("events", 4));
        assertNotEquals(a, new TopicPartition("event", 3));
        assertFalse(a.equals("events-3"));
        assertFalse(a.equals(null));
    }

    @Test
    public void findsItsValueInAHashMapAndSortsByTopicThenPartition() {
        Map<TopicPartition, Integer> map = new HashMap<>();
        for (int p = 0; p < 100; p++) {
            map.put(new TopicPartition("t" + (p % 7), p), p);
        }
        for (int p = 0; p < 100; p++) {
            assertEquals(Integer.valueOf(p), map.get(new TopicPartition("t" + (p % 7), p)));
        }
        TreeSet<TopicPartition> sorted = new TreeSet<>(map.keySet());
        assertEquals(new TopicPartition("t0", 0), sorted.first());
        assertEquals(new TopicPartition("t6", 97), sorted.last());
        assertTrue(sorted.contains(new TopicPartition("t3", 3)));
        assertEquals("t3-3", new TopicPartition("t3", 3).toString());
    }
}
