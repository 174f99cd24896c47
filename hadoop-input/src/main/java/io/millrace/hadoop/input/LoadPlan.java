package io.millrace.hadoop.input;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a job reads, fixed once when its splits are planned: one range per partition, from where the
 * last committed load stopped to the log end offset read at that moment, and the ranges retention
 * deleted before they could be read. The load job reads it back after the job to write its manifest,
 * so the offsets it commits are exactly those the tasks read. Immutable.
 *
 * @param topicIds the id of each planned topic when it was planned (topics the broker gave no id are absent),
 *     kept with the committed offsets so that the next load can tell a topic created again
 * @param restartedTopics topics that were deleted and created again since the last load and are read from
 *     their start again ({@code millrace.hadoop.recreated.topic=restart}); their old offsets are dropped
 */
public record LoadPlan(long plannedAtMs, List<PartitionRange> ranges, List<LostRange> lost,
                       Map<String, String> topicIds, List<String> restartedTopics) {

    public LoadPlan {
        ranges = List.copyOf(ranges);
        lost = List.copyOf(lost);
        topicIds = topicIds == null ? Map.of() : new TreeMap<>(topicIds);
        restartedTopics = restartedTopics == null ? List.of() : List.copyOf(restartedTopics);
    }

    public LoadPlan(long plannedAtMs, List<PartitionRange> ranges, List<LostRange> lost) {
        this(plannedAtMs, ranges, lost, Map.of(), List.of());
    }

    /** This plan with the topics' ids and the topics it restarts. */
    public LoadPlan withTopics(Map<String, String> ids, List<String> restarted) {
        return new LoadPlan(plannedAtMs, ranges, lost, ids, restarted);
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
        return offsetCount() == 0 && lost.isEmpty() && restartedTopics.isEmpty();
    }
}
