package io.millrace.broker.log;

import io.millrace.common.TopicPartition;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToLongFunction;

/**
 * The checkpoint files of every log directory: {@code recovery-point-offset-checkpoint} (where
 * each log's unflushed tail begins, so a restart after a crash validates only that),
 * {@code log-start-offset-checkpoint} (how far DeleteRecords and retention moved each log's start),
 * {@code replication-offset-checkpoint} (each log's high watermark, {@link Log#highWatermark}) and
 * {@code cleaner-offset-checkpoint} (how far the log cleaner cleaned each compacted log, so that a
 * restart does not clean them all again).
 */
final class LogCheckpoints {

    private final Collection<Log> logs;
    private final LogCleaner cleaner;
    /** One per directory, so that concurrent writers of a directory's file take turns. */
    private final ConcurrentHashMap<Path, OffsetCheckpointFile> startOffsetFiles = new ConcurrentHashMap<>();

    /** {@code logs} is a live view of every open log. */
    LogCheckpoints(Collection<Log> logs, LogCleaner cleaner) {
        this.logs = logs;
        this.cleaner = cleaner;
    }

    Map<TopicPartition, Long> readRecoveryPoints(Path dir) throws IOException {
        return recoveryPointFile(dir).read();
    }

    Map<TopicPartition, Long> readStartOffsets(Path dir) throws IOException {
        return startOffsetFile(dir).read();
    }

    Map<TopicPartition, Long> readHighWatermarks(Path dir) throws IOException {
        return highWatermarkFile(dir).read();
    }

    Map<TopicPartition, Long> readCleanerOffsets(Path dir) throws IOException {
        return cleanerOffsetFile(dir).read();
    }

    /** Writes the four files of {@code dir} from its logs' current offsets. */
    void writeAll(Path dir) throws IOException {
        recoveryPointFile(dir).write(offsetsIn(dir, Log::recoveryPoint));
        highWatermarkFile(dir).write(offsetsIn(dir, Log::highWatermarkToCheckpoint));
        writeStartOffsets(dir);
        Map<TopicPartition, Long> cleaned = offsetsIn(dir, cleaner::cleanedUpTo);
        cleaned.values().removeIf(offset -> offset < 0);
        cleanerOffsetFile(dir).write(cleaned);
    }

    void writeStartOffsets(Path dir) throws IOException {
        OffsetCheckpointFile file = startOffsetFile(dir);
        // Read the offsets under the file's lock, so that the last writer writes the latest offsets.
        synchronized (file) {
            file.write(offsetsIn(dir, Log::logStartOffset));
        }
    }

    private Map<TopicPartition, Long> offsetsIn(Path dir, ToLongFunction<Log> offset) {
        Map<TopicPartition, Long> points = new HashMap<>();
        for (Log log : logs) {
            if (log.logDir().equals(dir)) {
                points.put(log.topicPartition(), offset.applyAsLong(log));
            }
        }
        return points;
    }

    private OffsetCheckpointFile startOffsetFile(Path dir) {
        return startOffsetFiles.computeIfAbsent(dir,
            d -> new OffsetCheckpointFile(d.resolve(LogFileNames.LOG_START_OFFSET_CHECKPOINT)));
    }

    private OffsetCheckpointFile highWatermarkFile(Path dir) {
        return new OffsetCheckpointFile(dir.resolve(LogFileNames.REPLICATION_OFFSET_CHECKPOINT));
    }

    private OffsetCheckpointFile cleanerOffsetFile(Path dir) {
        return new OffsetCheckpointFile(dir.resolve(LogFileNames.CLEANER_OFFSET_CHECKPOINT));
    }

    private OffsetCheckpointFile recoveryPointFile(Path dir) {
        return new OffsetCheckpointFile(dir.resolve(LogFileNames.RECOVERY_POINT_CHECKPOINT));
    }
}
