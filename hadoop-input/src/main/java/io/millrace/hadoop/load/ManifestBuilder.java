package io.millrace.hadoop.load;

import io.millrace.common.TopicPartition;
import io.millrace.hadoop.HourLayout;
import io.millrace.hadoop.input.LoadPlan;
import io.millrace.hadoop.input.LostRange;
import io.millrace.hadoop.input.PartitionRange;
import io.millrace.hadoop.state.CommittedOffset;
import io.millrace.hadoop.state.FileMove;
import io.millrace.hadoop.state.HourCount;
import io.millrace.hadoop.state.Manifest;
import io.millrace.hadoop.state.TopicHour;
import io.millrace.hadoop.state.WindowCount;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Builds a load's manifest from the job's committed output: the offsets (the previous manifest's,
 * advanced to the end of every planned range), a move per file (data into the data root under the
 * same relative path, errors into the state directory), events per topic and hour, the hours
 * that already existed in the data root before this load (late data), and with auditing on the tasks'
 * audit counts, merged per topic and window.
 */
final class ManifestBuilder {

    private final FileSystem fs;
    private final Path output;
    private final Path dataRoot;
    private final Path errorDir;

    ManifestBuilder(FileSystem fs, Path output, Path dataRoot, Path errorDir) {
        this.fs = fs;
        this.output = output;
        this.dataRoot = dataRoot;
        this.errorDir = errorDir;
    }

    /** The manifest of load {@code sequence}; {@code audited}: whether the tasks counted for the audit. */
    Manifest build(long sequence, String runId, Manifest previous, LoadPlan plan, List<TaskReport> reports, boolean audited)
        throws IOException {
        List<FileMove> moves = new ArrayList<>();
        Map<TopicHour, Long> counts = new TreeMap<>(ManifestBuilder::compare);
        TreeSet<TopicHour> late = new TreeSet<>(ManifestBuilder::compare);
        long records = 0;
        long errors = 0;
        List<LostRange> lost = new ArrayList<>(plan.lost());
        for (TaskReport report : reports) {
            lost.addAll(report.lost());
            for (WrittenFile file : report.files()) {
                Path destination = new Path(dataRoot, file.path().substring(HourlyFiles.DATA_DIRECTORY.length() + 1));
                moves.add(new FileMove(new Path(output, file.path()).toString(), destination.toString()));
                TopicHour hour = new TopicHour(file.topic(), HourLayout.label(file.hourMs()));
                counts.merge(hour, file.records(), Long::sum);
                if (fs.exists(destination.getParent())) {
                    late.add(hour);
                }
                records += file.records();
            }
            if (report.errorFile() != null) {
                Path source = new Path(output, report.errorFile());
                moves.add(new FileMove(source.toString(), new Path(errorDir, source.getName()).toString()));
            }
            errors += report.undecodable();
        }
        return new Manifest(sequence, runId, System.currentTimeMillis(), offsets(previous, plan), plan.ranges(), lost,
            moves, counts.entrySet().stream().map(e -> new HourCount(e.getKey().topic(), e.getKey().hour(), e.getValue())).toList(),
            new ArrayList<>(late), records, errors, plan.restartedTopics(), audited ? auditWindows(reports) : null);
    }

    /** The tasks' audit counts, one per topic and window, in that order. */
    private static List<WindowCount> auditWindows(List<TaskReport> reports) {
        Map<String, Map<Long, WindowCount>> windows = new TreeMap<>();
        for (TaskReport report : reports) {
            for (WindowCount count : report.audit() == null ? List.<WindowCount>of() : report.audit()) {
                windows.computeIfAbsent(count.topic(), t -> new TreeMap<>())
                    .merge(count.windowStart(), count, WindowCount::plus);
            }
        }
        return windows.values().stream().flatMap(byStart -> byStart.values().stream()).toList();
    }

    /**
     * The previous load's offsets (less those of restarted topics, whose data is gone), advanced to the end
     * of every planned range and labelled with the topic id it was planned under.
     */
    private static List<CommittedOffset> offsets(Manifest previous, LoadPlan plan) {
        Map<TopicPartition, CommittedOffset> offsets = new TreeMap<>();
        for (CommittedOffset offset : previous == null ? List.<CommittedOffset>of() : previous.offsets()) {
            if (!plan.restartedTopics().contains(offset.topic())) {
                offsets.put(offset.topicPartition(), offset);
            }
        }
        for (PartitionRange range : plan.ranges()) {
            offsets.put(range.topicPartition(), new CommittedOffset(range.topic(), range.partition(), range.end(),
                plan.topicIds().get(range.topic())));
        }
        return List.copyOf(offsets.values());
    }

    private static int compare(TopicHour a, TopicHour b) {
        int byTopic = a.topic().compareTo(b.topic());
        return byTopic != 0 ? byTopic : a.hour().compareTo(b.hour());
    }
}
