package io.millrace.hadoop.state;

import io.millrace.common.TopicPartition;
import io.millrace.hadoop.input.LostRange;
import io.millrace.hadoop.input.PartitionRange;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one load commits, in one file: renaming it to {@code manifests/<sequence>.json} is the commit
 * point of the load. It holds
 * <ul>
 *   <li>{@code offsets}: the next offset to load of every partition ever loaded (those of earlier
 *       loads carried over), so the newest manifest alone says where the next load starts;</li>
 *   <li>{@code ranges} and {@code lost}: what this load read, and what retention deleted before it could
 *       (with auditing on, the lost ranges are published to the audit topic with the window counts);</li>
 *   <li>{@code files}: every file to move from the load's staging directory into the data root (and
 *       the error output into the state directory): replaying them is idempotent, so a crash after the
 *       commit point is completed by the next load;</li>
 *   <li>{@code counts} and {@code lateHours}: events per topic and event hour, and the hours that had
 *       been loaded before (late data), for the summary and downstream jobs;</li>
 *   <li>{@code restartedTopics}: topics found deleted and created again, whose old offsets were dropped
 *       and which this load read from their start;</li>
 *   <li>{@code auditWindows}: with auditing on, what the load counted per topic and audit window, published
 *       to the audit topic after the commit; null when auditing was off (and in manifests written before the
 *       loader counted).</li>
 * </ul>
 * Immutable.
 */
public record Manifest(long sequence, String runId, long committedAtMs, List<CommittedOffset> offsets,
                       List<PartitionRange> ranges, List<LostRange> lost, List<FileMove> files,
                       List<HourCount> counts, List<TopicHour> lateHours, long records, long errors,
                       List<String> restartedTopics, List<WindowCount> auditWindows) {

    public Manifest {
        offsets = List.copyOf(offsets);
        ranges = List.copyOf(ranges);
        lost = List.copyOf(lost);
        files = List.copyOf(files);
        counts = List.copyOf(counts);
        lateHours = List.copyOf(lateHours);
        restartedTopics = restartedTopics == null ? List.of() : List.copyOf(restartedTopics);
        auditWindows = auditWindows == null ? null : List.copyOf(auditWindows);
    }

    /** The committed offsets by partition. */
    public Map<TopicPartition, Long> offsetMap() {
        Map<TopicPartition, Long> map = new TreeMap<>();
        for (CommittedOffset offset : offsets) {
            map.put(offset.topicPartition(), offset.offset());
        }
        return map;
    }
}
