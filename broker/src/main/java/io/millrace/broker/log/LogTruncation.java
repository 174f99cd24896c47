package io.millrace.broker.log;

import io.millrace.common.record.RecordBatch;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removing the tail of a {@link Log}, as a follower does with records its new leader never had
 * ({@link Log#truncateTo}), or all of it ({@link Log#truncateFullyAndStartAt}).
 *
 * <p>Readers never see a torn log: no file a reader may hold is cut or rewritten. Whole segments
 * past the cut are renamed to {@code .deleted} and removed after {@code file.delete.delay.ms}, as
 * retention does. The segment holding the cut is replaced by a shorter copy: its batches before
 * the cut are copied to {@code <base>.log.tmp}, which is fsynced and renamed over
 * {@code <base>.log}, and its indexes are rebuilt from the copy. Readers already in the old file
 * keep reading it (renaming over a file leaves open descriptors on the old one); the new end is
 * published last, so a reader sees either the old log or the truncated one, and a read of a removed
 * offset is out of range. The copy costs up to a segment's bytes, which a truncation, rare and of
 * recent records, is worth for that guarantee.
 *
 * <p>Crash safety: later segments are renamed (and the directory fsynced) before the cut segment
 * is replaced, and the replacement is one atomic rename, so a crash at any point leaves a log that
 * is a prefix of the old one and at least as long as the truncated one.
 */
final class LogTruncation {

    private static final Logger LOG = LoggerFactory.getLogger(LogTruncation.class);

    private final Log log;

    LogTruncation(Log log) {
        this.log = log;
    }

    /** See {@link Log#truncateTo}. */
    boolean truncateTo(long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("Cannot truncate " + log.topicPartition() + " to negative offset " + offset);
        }
        synchronized (log.flushLock()) {
            ReentrantLock lock = log.appendLock();
            lock.lock();
            try {
                log.health().ensureUsable();
                if (offset >= log.end().offset()) {
                    return false;
                }
                if (offset < log.logStartOffset()) {
                    restartAt(offset);
                } else {
                    cutAt(offset);
                }
                return true;
            } catch (IOException e) {
                throw log.health().offline("truncate", e);
            } finally {
                lock.unlock();
            }
        }
    }

    /** See {@link Log#truncateFullyAndStartAt}. */
    void truncateFullyAndStartAt(long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("Cannot restart " + log.topicPartition() + " at negative offset " + offset);
        }
        synchronized (log.flushLock()) {
            ReentrantLock lock = log.appendLock();
            lock.lock();
            try {
                log.health().ensureUsable();
                restartAt(offset);
            } catch (IOException e) {
                throw log.health().offline("truncate", e);
            } finally {
                lock.unlock();
            }
        }
    }

    private void cutAt(long offset) throws IOException {
        NavigableMap<Long, LogSegment> segments = log.segmentMap();
        LogSegment segment = segments.floorEntry(offset).getValue();
        // The batch holding the offset goes whole: a log ends between batches.
        Cut cut = batchHolding(segment, offset);
        // A batch past the offset means it fell in a gap the cleaner left: the log then ends at the offset.
        long newEnd = Math.min(cut.baseOffset(), offset);
        int position = cut.position();
        LOG.info("Truncating {} to offset {}: from offset {} on ({} of segment {} and {} later segments)",
            log.topicPartition(), offset, newEnd, position == 0 ? "all" : "the part after byte " + position,
            segment.baseOffset(), segments.tailMap(segment.baseOffset(), false).size());
        List<LogSegment> removed = new ArrayList<>(segments.tailMap(segment.baseOffset(), false).values());
        for (LogSegment later : removed) {
            segments.remove(later.baseOffset());
            retire(later);
        }
        IoUtils.fsyncDirectory(log.dir());
        LogSegment replacement = replace(segment, position);
        removed.add(segment);
        segments.put(replacement.baseOffset(), replacement);
        log.publishEnd(new LogEnd(newEnd, replacement, replacement.size()));
        if (log.logStartOffset() > newEnd) {
            log.advanceLogStartOffset(newEnd);
        }
        afterwards(removed, newEnd);
    }

    /**
     * Renames a removed segment's files to {@code .deleted}. A truncation can remove a segment of
     * the same base offset twice within {@code file.delete.delay.ms}; the earlier files, waiting for
     * their delete, give way ({@link LogSegment#retire}).
     */
    private void retire(LogSegment segment) throws IOException {
        segment.retire(log.dir());
    }

    /** A copy of {@code segment}'s first {@code position} bytes, in its place on disk. */
    private LogSegment replace(LogSegment segment, int position) throws IOException {
        LogConfig config = log.config();
        LogContext context = log.context();
        if (position == 0) {
            retire(segment);
            IoUtils.fsyncDirectory(log.dir());
            return LogSegment.create(log.dir(), segment.baseOffset(), config, context);
        }
        Path logFile = LogFileNames.logFile(log.dir(), segment.baseOffset());
        Path copy = logFile.resolveSibling(logFile.getFileName() + LogFileNames.TMP_SUFFIX);
        FileSlice prefix = segment.read(segment.baseOffset(), position, position, false);
        try (FileChannel out = FileChannel.open(copy, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
            for (long done = 0; done < position; ) {
                done += prefix.transferTo(out, done, position - done);
            }
            out.force(true);
        }
        segment.markReplaced();
        Files.move(copy, logFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        // The old indexes cover the removed batches; without them the copy's are rebuilt.
        Files.delete(LogFileNames.offsetIndexFile(log.dir(), segment.baseOffset()));
        Files.delete(LogFileNames.timeIndexFile(log.dir(), segment.baseOffset()));
        IoUtils.fsyncDirectory(log.dir());
        LogSegment replacement = LogSegment.open(log.dir(), segment.baseOffset(), config, context);
        replacement.recover();
        replacement.flush();
        return replacement;
    }

    private void restartAt(long offset) throws IOException {
        NavigableMap<Long, LogSegment> segments = log.segmentMap();
        LOG.info("Truncating all of {} ({} segments, offsets {} to {}) to restart at offset {}", log.topicPartition(),
            segments.size(), log.logStartOffset(), log.end().offset(), offset);
        List<LogSegment> removed = new ArrayList<>(segments.values());
        for (LogSegment segment : removed) {
            retire(segment);
        }
        IoUtils.fsyncDirectory(log.dir());
        LogSegment fresh = LogSegment.create(log.dir(), offset, log.config(), log.context());
        segments.put(offset, fresh);
        segments.keySet().removeIf(base -> base != offset);
        log.publishEnd(new LogEnd(offset, fresh, 0));
        log.advanceLogStartOffset(offset);
        log.durabilityState().restartAt(offset);
        log.leaderEpochCache().clear();
        log.highWatermarkState().reset(offset);
        log.producerState().truncateFully();
        scheduleDelete(removed);
        log.context().flusher().requestFlush(log);
    }

    /** What follows a cut at {@code newEnd}: the state that described the removed records. */
    private void afterwards(List<LogSegment> removed, long newEnd) throws IOException {
        log.durabilityState().truncated(newEnd);
        log.leaderEpochCache().truncateFromEnd(newEnd);
        log.highWatermarkState().truncated(newEnd);
        // Rebuilt from the snapshot at or below the cut and the batches after it, as at load.
        log.producerState().reload(newEnd, log.segmentMap(), log.context().time().milliseconds());
        scheduleDelete(removed);
        log.context().flusher().requestFlush(log);
    }

    /** Removes the files of removed segments after the delay that lets reads under way finish. */
    private void scheduleDelete(List<LogSegment> removed) {
        log.context().schedule(() -> {
            try {
                for (LogSegment segment : removed) {
                    if (segment.logFile().getFileName().toString().endsWith(LogFileNames.DELETED_SUFFIX)) {
                        segment.deleteFiles();
                    } else {
                        // Replaced, not renamed: its names belong to the replacement, so only its descriptors go.
                        segment.closeQuietly();
                    }
                }
            } catch (IOException e) {
                log.health().offline("remove truncated segments of", e);
            }
        }, log.config().fileDeleteDelayMs());
    }

    /** Where the batch holding {@code offset} starts: its byte position and base offset. */
    private record Cut(int position, long baseOffset) {
    }

    private static Cut batchHolding(LogSegment segment, long offset) throws IOException {
        FileSlice slice = segment.read(offset, 0, segment.size(), true);
        int position = slice == null ? -1 : (int) slice.position();
        RecordBatch header = slice == null ? null
            : BatchHeaders.local().read(slice.channel(), position, position + slice.sizeInBytes());
        if (header == null) {
            throw new IOException("Segment " + segment.logFile() + " has no batch holding offset " + offset);
        }
        return new Cut(position, header.baseOffset());
    }
}
