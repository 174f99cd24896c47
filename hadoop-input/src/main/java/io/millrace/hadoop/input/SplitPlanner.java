package io.millrace.hadoop.input;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns the ranges of a load into splits: a range longer than {@code maxSplitRecords} is cut into
 * chunks of that size (each a split of its own) and a rest; shorter ranges and rests are packed, in the order given,
 * into shared splits of at most {@code maxSplitRecords} offsets, so that a topic with many quiet
 * partitions does not cost a task per partition. Ranges with nothing to read are left out unless
 * they carry lost offsets, which their task must count. Pure function, no I/O.
 */
public final class SplitPlanner {

    private final long maxSplitRecords;

    public SplitPlanner(long maxSplitRecords) {
        if (maxSplitRecords < 1) {
            throw new IllegalArgumentException("max split records must be at least 1, not " + maxSplitRecords);
        }
        this.maxSplitRecords = maxSplitRecords;
    }

    public List<MillraceInputSplit> plan(List<PartitionRange> ranges) {
        List<MillraceInputSplit> splits = new ArrayList<>();
        List<PartitionRange> shared = new ArrayList<>();
        long sharedSize = 0;
        for (PartitionRange range : ranges) {
            if (range.size() == 0 && range.lost() == 0) {
                continue;
            }
            if (range.size() >= maxSplitRecords) {
                range = chunk(range, splits);
                if (range.size() == 0) {
                    continue;
                }
            }
            if (sharedSize + range.size() > maxSplitRecords) {
                splits.add(new MillraceInputSplit(shared));
                shared = new ArrayList<>();
                sharedSize = 0;
            }
            shared.add(range);
            sharedSize += range.size();
        }
        if (!shared.isEmpty()) {
            splits.add(new MillraceInputSplit(shared));
        }
        return splits;
    }

    /** Adds a split per full chunk of {@code range}; returns the rest, shorter than a chunk, to be packed with others. */
    private PartitionRange chunk(PartitionRange range, List<MillraceInputSplit> splits) {
        long lost = range.lost();
        long start = range.start();
        for (; range.end() - start >= maxSplitRecords; start += maxSplitRecords) {
            PartitionRange full = new PartitionRange(range.topic(), range.partition(), start, start + maxSplitRecords, lost);
            splits.add(new MillraceInputSplit(List.of(full)));
            lost = 0;
        }
        return new PartitionRange(range.topic(), range.partition(), start, range.end(), lost);
    }
}
