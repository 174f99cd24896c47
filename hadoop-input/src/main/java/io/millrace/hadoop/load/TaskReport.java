package io.millrace.hadoop.load;

import io.millrace.hadoop.input.LostRange;
import io.millrace.hadoop.input.PartitionRange;
import io.millrace.hadoop.state.WindowCount;
import java.util.List;

/**
 * What one map task did, written as {@code reports/<split>.json} into its work directory, so it is
 * committed with the task's files or dropped with a failed attempt. The driver checks that the committed
 * reports cover exactly the planned ranges, and builds the manifest from their files and counts.
 */
public record TaskReport(String split, List<PartitionRange> ranges, List<WrittenFile> files, long messagesRead,
                         long undecodable, String errorFile, List<LostRange> lost, List<WindowCount> audit) {

    /**
     * {@code lost}: what retention deleted while the task read its ranges (what planning found is in the plan);
     * {@code audit}: the task's counts per topic and audit window, null with auditing off.
     */
    public TaskReport {
        ranges = List.copyOf(ranges);
        files = List.copyOf(files);
        lost = lost == null ? List.of() : List.copyOf(lost);
        audit = audit == null ? null : List.copyOf(audit);
    }

    public static final String DIRECTORY = "reports";
}
