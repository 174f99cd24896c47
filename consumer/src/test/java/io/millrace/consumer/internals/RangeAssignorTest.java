package io.millrace.consumer.internals;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.junit.Test;

/** Algorithm 1's split: contiguous sorted ranges, sizes differing by at most one, every partition owned once. */
public class RangeAssignorTest {

    private static List<Integer> partitions(int n) {
        return IntStream.range(0, n).boxed().toList();
    }

    @Test
    public void evenCountsGiveEqualContiguousRanges() {
        List<String> threads = List.of("c1-0", "c2-0", "c3-0");
        assertEquals(List.of(0, 1, 2, 3), RangeAssignor.assign(partitions(12), threads, "c1-0"));
        assertEquals(List.of(4, 5, 6, 7), RangeAssignor.assign(partitions(12), threads, "c2-0"));
        assertEquals(List.of(8, 9, 10, 11), RangeAssignor.assign(partitions(12), threads, "c3-0"));
    }

    @Test
    public void unevenCountsGiveTheFirstThreadsOneMore() {
        List<String> threads = List.of("a-0", "b-0", "c-0");
        assertEquals(List.of(0, 1, 2), RangeAssignor.assign(partitions(8), threads, "a-0"));
        assertEquals(List.of(3, 4, 5), RangeAssignor.assign(partitions(8), threads, "b-0"));
        assertEquals(List.of(6, 7), RangeAssignor.assign(partitions(8), threads, "c-0"));
    }

    @Test
    public void moreThreadsThanPartitionsLeavesTheLastThreadsIdle() {
        List<String> threads = List.of("a-0", "b-0", "c-0", "d-0", "e-0");
        assertEquals(List.of(0), RangeAssignor.assign(partitions(3), threads, "a-0"));
        assertEquals(List.of(1), RangeAssignor.assign(partitions(3), threads, "b-0"));
        assertEquals(List.of(2), RangeAssignor.assign(partitions(3), threads, "c-0"));
        assertEquals(List.of(), RangeAssignor.assign(partitions(3), threads, "d-0"));
        assertEquals(List.of(), RangeAssignor.assign(partitions(3), threads, "e-0"));
    }

    @Test
    public void everyConsumerComputesTheSameSplitWhateverOrderItSeesTheRegistryIn() {
        List<String> threads = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            threads.add("consumer" + i + "-0");
        }
        for (int round = 0; round < 20; round++) {
            Collections.shuffle(threads);
            List<Integer> shuffled = new ArrayList<>(partitions(23));
            Collections.shuffle(shuffled);
            TreeSet<Integer> owned = new TreeSet<>();
            int total = 0;
            for (String thread : threads) {
                List<Integer> range = RangeAssignor.assign(shuffled, threads, thread);
                assertTrue("3 or 4 partitions each", range.size() == 3 || range.size() == 4);
                total += range.size();
                owned.addAll(range);
            }
            assertEquals(23, total);
            assertEquals(new TreeSet<>(partitions(23)), owned);
        }
    }

    @Test
    public void aThreadNotInTheRegistryGetsNothing() {
        assertEquals(List.of(), RangeAssignor.assign(partitions(4), List.of("a-0"), "b-0"));
        assertEquals(List.of(), RangeAssignor.assign(List.of(), List.of("a-0"), "a-0"));
    }

    @Test
    public void consumersWithSeveralStreamsSplitByThread() {
        ConsumerRegistration one = new ConsumerRegistration("one", Map.of("t", 2), false, 0);
        ConsumerRegistration two = new ConsumerRegistration("two", Map.of("t", 1), false, 0);
        List<String> threads = new ArrayList<>(one.threadsFor("t"));
        threads.addAll(two.threadsFor("t"));
        assertEquals(List.of("one-0", "one-1"), one.threadsFor("t"));
        assertEquals(List.of(0, 1), RangeAssignor.assign(partitions(5), threads, "one-0"));
        assertEquals(List.of(2, 3), RangeAssignor.assign(partitions(5), threads, "one-1"));
        assertEquals(List.of(4), RangeAssignor.assign(partitions(5), threads, "two-0"));
    }

    @Test
    public void registrationsRoundTripThroughTheirJson() {
        ConsumerRegistration regex = new ConsumerRegistration("c", Map.of("events-.*", 3), true, 1700000000000L);
        ConsumerRegistration parsed = ConsumerRegistration.parse("c", regex.toJson());
        assertEquals(regex, parsed);
        assertEquals(3, parsed.streamsFor("events-click"));
        assertEquals(0, parsed.streamsFor("audit"));
        assertEquals(0, parsed.streamsFor("__internal"));
        String json = new String(regex.toJson(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(json, json.contains("\"pattern\":\"white_list\"") && json.contains("\"version\":1"));
    }
}
