package io.millrace.consumer.internals;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The partition split of the paper's Algorithm 1, for one topic: partitions and consumer threads
 * are sorted, each thread takes a contiguous range of |P| / |C| partitions, and the first
 * |P| mod |C| threads take one more, so every partition has exactly one owner and ranges differ by
 * at most one. Threads beyond the number of partitions get nothing. Every consumer computes the
 * same split from the same registries without talking to the others. Stateless and thread-safe.
 */
public final class RangeAssignor {

    private RangeAssignor() {
    }

    /**
     * The partitions {@code thread} owns among {@code threads}, in ascending order; empty when the
     * thread is not among them or the range is empty.
     */
    public static List<Integer> assign(Collection<Integer> partitions, Collection<String> threads, String thread) {
        List<Integer> sortedPartitions = partitions.stream().sorted().toList();
        List<String> sortedThreads = threads.stream().sorted().distinct().toList();
        int index = sortedThreads.indexOf(thread);
        if (index < 0 || sortedPartitions.isEmpty()) {
            return List.of();
        }
        int perThread = sortedPartitions.size() / sortedThreads.size();
        int extra = sortedPartitions.size() % sortedThreads.size();
        int start = index * perThread + Math.min(index, extra);
        int count = perThread + (index < extra ? 1 : 0);
        return new ArrayList<>(sortedPartitions.subList(start, start + count));
    }
}
