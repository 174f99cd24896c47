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
        Map<TopicPartition, Long> latest = reader.offsets(partitions, ListOffsetsRequest.LATEST_TIMESTAMP);
        Map<TopicPartition, Long> byTime = newStarts(partitions, committed);
        List<PartitionRange> ranges = new ArrayList<>();
        List<LostRange> lost = new ArrayList<>();
        for (Map.Entry<TopicPartition, Long> e : earliest.entrySet()) {
            TopicPartition tp = e.getKey();
            long end = latest.get(tp);
            long start = committed.containsKey(tp) ? committed.get(tp) : byTime.getOrDefault(tp, e.getValue());
            ranges.add(range(tp, start, e.getValue(), end, lost));
        }
        return new LoadPlan(now, ranges, lost);
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

    /** Start offsets by time for partitions never loaded, when a start time is configured; the log end where none is that late. */
    private Map<TopicPartition, Long> newStarts(Collection<TopicPartition> partitions, Map<TopicPartition, Long> committed) {
        List<TopicPartition> fresh = partitions.stream().filter(tp -> !committed.containsKey(tp)).toList();
        if (fresh.isEmpty() || newPartitionStartMs.isEmpty()) {
            return Map.of();
        }
        Map<TopicPartition, Long> byTime = new TreeMap<>(reader.offsetsForTime(fresh, newPartitionStartMs.getAsLong()));
        Map<TopicPartition, Long> ends = reader.offsets(fresh, ListOffsetsRequest.LATEST_TIMESTAMP);
        byTime.replaceAll((tp, offset) -> offset < 0 ? ends.get(tp) : offset);
        return byTime;
    }
}
