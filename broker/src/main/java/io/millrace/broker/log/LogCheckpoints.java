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
 * {@code log-start-offset-checkpoint} (how far DeleteRecords and retention moved each log's start)
 * and {@code replication-offset-checkpoint} (each log's high watermark, {@link Log#highWatermark}).
 */
final class LogCheckpoints {

    private final Collection<Log> logs;
    /** One per directory, so that concurrent writers of a directory's file take turns. */
    private final ConcurrentHashMap<Path, OffsetCheckpointFile> startOffsetFiles = new ConcurrentHashMap<>();

    /** {@code logs} is a live view of every open log. */
    LogCheckpoints(Collection<Log> logs) {
        this.logs = logs;
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

    /** Writes the three files of {@code dir} from its logs' current offsets. */
    void writeAll(Path dir) throws IOException {
        recoveryPointFile(dir).write(offsetsIn(dir, Log::recoveryPoint));
        highWatermarkFile(dir).write(offsetsIn(dir, Log::highWatermarkToCheckpoint));
        writeStartOffsets(dir);
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

    private OffsetCheckpointFile recoveryPointFile(Path dir) {
        return new OffsetCheckpointFile(dir.resolve(LogFileNames.RECOVERY_POINT_CHECKPOINT));
    }
}
