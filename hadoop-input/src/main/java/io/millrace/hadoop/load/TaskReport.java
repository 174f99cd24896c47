package io.millrace.hadoop.load;

import io.millrace.hadoop.input.LostRange;
import io.millrace.hadoop.input.PartitionRange;
import java.util.List;

/**
 * What one map task did, written as {@code reports/<split>.json} into its work directory, so it is
 * committed with the task's files or dropped with a failed attempt. The driver checks that the committed
 * reports cover exactly the planned ranges, and builds the manifest from their files and counts.
 */
public record TaskReport(String split, List<PartitionRange> ranges, List<WrittenFile> files, long messagesRead,
                         long undecodable, String errorFile, List<LostRange> lost) {

    /** {@code lost}: what retention deleted while the task read its ranges (what planning found is in the plan). */
    public TaskReport {
        ranges = List.copyOf(ranges);
        files = List.copyOf(files);
        lost = lost == null ? List.of() : List.copyOf(lost);
    }

    public static final String DIRECTORY = "reports";
}
