package io.millrace.hadoop.input;

import java.util.List;

/**
 * What a job reads, fixed once when its splits are planned: one range per partition, from where the
 * last committed load stopped to the log end offset read at that moment, and the ranges retention
 * deleted before they could be read. The load job reads it back after the job to write its manifest,
 * so the offsets it commits are exactly those the tasks read. Immutable.
 */
public record LoadPlan(long plannedAtMs, List<PartitionRange> ranges, List<LostRange> lost) {

    public LoadPlan {
        ranges = List.copyOf(ranges);
        lost = List.copyOf(lost);
    }

    /** Offsets the job reads in all. */
    public long offsetCount() {
        return ranges.stream().mapToLong(PartitionRange::size).sum();
    }

    public long lostCount() {
        return lost.stream().mapToLong(LostRange::count).sum();
    }

    /** Whether there is nothing to read and nothing to report. */
    public boolean isEmpty() {
        return offsetCount() == 0 && lost.isEmpty();
    }
}
