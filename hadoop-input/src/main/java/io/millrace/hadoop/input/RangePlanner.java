package io.millrace.hadoop.input;

import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.message.ListOffsetsRequest;
import io.millrace.consumer.PartitionReader;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the brokers where each partition's range starts and ends. Per partition: start = the offset
 * the last committed load reached; a partition no load has read starts at its earliest offset, or
 * at the first offset at or after the configured time. End = the log end offset, read once, now.
 *
 * <p>When retention has deleted offsets the last load did not read (start &lt; earliest), they are
 * recorded as a {@link LostRange} and the range goes on from the earliest offset: never a silent reset.
 * A committed offset beyond the log end means the partition is not the one that was loaded (a topic
 * deleted and created again, a different cluster): that fails the planning with a message saying so.
 */
public final class RangePlanner {

    private static final Logger LOG = LoggerFactory.getLogger(RangePlanner.class);

    private final PartitionReader reader;
    private final OptionalLong newPartitionStartMs;

    public RangePlanner(PartitionReader reader, OptionalLong newPartitionStartMs) {
        this.reader = reader;
        this.newPartitionStartMs = newPartitionStartMs;
    }

    /** The plan for {@code partitions}, given the offsets committed so far (absent: never loaded). */
    public LoadPlan plan(Collection<TopicPartition> partitions, Map<TopicPartition, Long> committed) {
        long now = System.currentTimeMillis();
        Map<TopicPartition, Long> earliest = new TreeMap<>(reader.offsets(partitions, ListOffsetsRequest.EARLIEST_TIMESTAMP));
        Map<TopicPartition, Long> byTime = newStarts(partitions, committed);
        // The one log-end lookup, after every other: offsets only grow, so every start found above is at or
        // below it, and a partition with no message after the start time starts (and ends) right there.
        Map<TopicPartition, Long> latest = reader.offsets(partitions, ListOffsetsRequest.LATEST_TIMESTAMP);
        List<PartitionRange> ranges = new ArrayList<>();
        List<LostRange> lost = new ArrayList<>();
        for (Map.Entry<TopicPartition, Long> e : earliest.entrySet()) {
            TopicPartition tp = e.getKey();
            long end = latest.get(tp);
            ranges.add(range(tp, start(tp, committed, byTime, e.getValue(), end), e.getValue(), end, lost));
        }
        return new LoadPlan(now, ranges, lost);
    }

    private static long start(TopicPartition tp, Map<TopicPartition, Long> committed, Map<TopicPartition, Long> byTime,
                              long earliest, long end) {
        if (committed.containsKey(tp)) {
            return committed.get(tp);
        }
        long found = byTime.getOrDefault(tp, earliest);
        return found < 0 ? end : found;   // no message at or after the start time: only what comes later
    }

    private PartitionRange range(TopicPartition tp, long start, long earliest, long end, List<LostRange> lost) {
        if (start > end) {
            throw new IllegalStateException("The committed offset " + start + " of " + tp + " is beyond its log end offset "
                + end + ": the partition is not the one that was loaded (was the topic deleted and created again, or "
                + "does the state directory belong to another cluster?). Nothing was loaded.");
        }
        if (start >= earliest) {
            return new PartitionRange(tp.topic(), tp.partition(), start, end);
        }
        LostRange gap = new LostRange(tp.topic(), tp.partition(), start, earliest);
        LOG.warn("Retention deleted offsets [{}, {}) of {} before they were loaded: {} messages lost; loading on from {}",
            start, earliest, tp, gap.count(), earliest);
        lost.add(gap);
        return new PartitionRange(tp.topic(), tp.partition(), earliest, end, gap.count());
    }

    /** Start offsets by time for partitions never loaded, when a start time is configured; -1 where none is that late. */
    private Map<TopicPartition, Long> newStarts(Collection<TopicPartition> partitions, Map<TopicPartition, Long> committed) {
        List<TopicPartition> fresh = partitions.stream().filter(tp -> !committed.containsKey(tp)).toList();
        if (fresh.isEmpty() || newPartitionStartMs.isEmpty()) {
            return Map.of();
        }
        return reader.offsetsForTime(fresh, newPartitionStartMs.getAsLong());
    }
}
