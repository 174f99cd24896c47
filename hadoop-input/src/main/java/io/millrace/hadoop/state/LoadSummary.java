package io.millrace.hadoop.state;

import io.millrace.hadoop.input.LostRange;
import java.util.List;

/**
 * The JSON summary of a completed load, {@code summaries/<sequence>.json}: what it loaded per topic
 * and event hour, which hours had been loaded before (late data: downstream jobs over those hours
 * should run again), what retention deleted before it could be loaded, and how many messages could
 * not be decoded (and where they went), and which topics were found deleted and created again and
 * read from their start. Its presence marks the load as completed. Immutable.
 */
public record LoadSummary(long sequence, String runId, long committedAtMs, long completedAtMs, long records,
                          long errors, long lostMessages, List<LostRange> lost, List<HourCount> counts,
                          List<TopicHour> lateHours, int files, String errorDir,
                          List<String> restartedTopics) {

    public static LoadSummary of(Manifest manifest, long completedAtMs, String errorDir) {
        long lostMessages = manifest.lost().stream().mapToLong(LostRange::count).sum();
        return new LoadSummary(manifest.sequence(), manifest.runId(), manifest.committedAtMs(), completedAtMs,
            manifest.records(), manifest.errors(), lostMessages, manifest.lost(), manifest.counts(),
            manifest.lateHours(), manifest.files().size(), manifest.errors() > 0 ? errorDir : null,
            manifest.restartedTopics());
    }
}
