package io.millrace.broker.log;

import io.millrace.common.TopicPartition;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a partition directory into the segments of a {@link Log}: removes leftovers of
 * interrupted renames and merges, opens every segment, recovers those that may hold unflushed data (or whose
 * indexes fail their checks), drops everything after the first segment recovery had to cut, and
 * leaves the last segment ready for appends and the others trimmed.
 *
 * <p>Not thread-safe: it runs once, before the log is visible to anyone. Durability: recovered
 * segments are fsynced, and so is the directory if entries were created or removed, so the
 * loaded state is on disk when {@link #load} returns.
 */
final class LogLoader {

    private static final Logger LOG = LoggerFactory.getLogger(LogLoader.class);

    private final Path dir;
    private final LogConfig config;
    private final LogContext context;
    private final ConcurrentSkipListMap<Long, LogSegment> segments = new ConcurrentSkipListMap<>();
    private boolean dirChanged;

    private LogLoader(Path dir, LogConfig config, LogContext context) {
        this.dir = dir;
        this.config = config;
        this.context = context;
    }

    /** A loaded log: its segments, published end, log start offset and leader epochs. */
    record Loaded(ConcurrentSkipListMap<Long, LogSegment> segments, LogEnd end, long logStartOffset,
                  LeaderEpochCache epochs) {
    }

    /**
     * Loads the log of {@code dir} ({@link #load}). After an unclean shutdown every segment from the
     * one holding {@code checkpointedRecoveryPoint} on is recovered. The log starts at the later of
     * its first segment's base offset and {@code checkpointedStart}, afresh at the latter if a crash
     * lost the records up to it ({@link #startAfresh}); the leader epochs keep to what is left.
     */
    static Loaded loadLog(Path dir, TopicPartition tp, LogConfig config, LogContext context,
                          long checkpointedRecoveryPoint, boolean hadCleanShutdown, long checkpointedStart) throws IOException {
        OptionalLong unflushedFrom = hadCleanShutdown ? OptionalLong.empty() : OptionalLong.of(checkpointedRecoveryPoint);
        ConcurrentSkipListMap<Long, LogSegment> segments = load(dir, config, context, unflushedFrom);
        try {
            LogSegment active = segments.lastEntry().getValue();
            long endOffset = active.readNextOffset();
            if (checkpointedStart > endOffset) {
                active = startAfresh(dir, segments, checkpointedStart, endOffset, config, context);
                endOffset = checkpointedStart;
            }
            long logStartOffset = Math.max(segments.firstKey(), checkpointedStart);
            LeaderEpochCache epochs = LeaderEpochCache.load(dir, tp, segments.values());
            // An epoch may begin at the end, before its first batch; what lies beyond the end was lost.
            epochs.truncateFromEnd(endOffset + 1);
            epochs.truncateFromStart(logStartOffset);
            return new Loaded(segments, new LogEnd(endOffset, active, active.size()), logStartOffset, epochs);
        } catch (IOException | RuntimeException e) {
            segments.values().forEach(LogSegment::closeQuietly);
            throw e;
        }
    }

    /**
     * The segments of {@code dir}, sorted by base offset, never empty. {@code unflushedFrom} is
     * the checkpointed recovery point after an unclean shutdown, and empty after a clean one.
     */
    static ConcurrentSkipListMap<Long, LogSegment> load(Path dir, LogConfig config, LogContext context,
                                                        OptionalLong unflushedFrom) throws IOException {
        LogLoader loader = new LogLoader(dir, config, context);
        try {
            return loader.load(unflushedFrom);
        } catch (IOException | RuntimeException e) {
            loader.segments.values().forEach(LogSegment::closeQuietly);
            throw e;
        }
    }

    private ConcurrentSkipListMap<Long, LogSegment> load(OptionalLong unflushedFrom) throws IOException {
        Files.createDirectories(dir);
        removeLeftoverFiles();
        for (long baseOffset : segmentBaseOffsetsOnDisk()) {
            segments.put(baseOffset, LogSegment.open(dir, baseOffset, config, context));
        }
        recoverSegments(unflushedFrom);
        if (segments.isEmpty()) {
            segments.put(0L, LogSegment.create(dir, 0L, config, context));
            dirChanged = true;
        }
        LogSegment active = segments.lastEntry().getValue();
        for (LogSegment segment : segments.headMap(active.baseOffset()).values()) {
            segment.onBecomeInactive();
        }
        active.resizeIndexes(config.maxIndexSize());
        if (dirChanged) {
            IoUtils.fsyncDirectory(dir);
        }
        return segments;
    }

    /**
     * Recovers the segments that may hold unflushed data (from the one holding the recovery
     * point on; none after a clean shutdown) and any segment whose indexes fail their checks.
     * The first segment that recovery truncates ends the log: the segments after it go.
     */
    private void recoverSegments(OptionalLong unflushedFrom) throws IOException {
        Long firstUnflushed = unflushedFrom.isPresent() ? segments.floorKey(unflushedFrom.getAsLong()) : null;
        for (LogSegment segment : List.copyOf(segments.values())) {
            boolean unflushed = unflushedFrom.isPresent() && (firstUnflushed == null || segment.baseOffset() >= firstUnflushed);
            String problem = unflushed ? "it may hold data not flushed before an unclean shutdown" : segment.indexProblem();
            if (problem == null) {
                continue;
            }
            LOG.info("Recovering segment {} because {}", segment.logFile(), problem);
            int truncated = segment.recover();
            segment.flush();
            if (truncated > 0) {
                dropSegmentsAfter(segment, "was cut short");
                return;
            }
        }
        if (config.cleanupPolicy().compact()) {
            dropMergedSegments();
        }
        if (unflushedFrom.isPresent()) {
            checkContinuity(firstUnflushed == null ? Long.MIN_VALUE : firstUnflushed);
        }
    }

    /**
     * Removes segments left behind by a compaction that merged them into the segment before and was
     * interrupted before it retired them ({@link LogCompaction}): that segment already holds what
     * the cleaner kept of their offsets, so a segment starting below its end is a leftover.
     */
    private void dropMergedSegments() throws IOException {
        LogSegment previous = null;
        for (LogSegment segment : List.copyOf(segments.values())) {
            if (previous != null && segment.baseOffset() < previous.readNextOffset()) {
                LOG.warn("Removing segment {}: the cleaned segment {} before it holds its offsets, having replaced it in a "
                    + "compaction that a crash interrupted", segment.logFile(), previous.logFile());
                segments.remove(segment.baseOffset());
                segment.deleteFiles();
                dirChanged = true;
            } else {
                previous = segment;
            }
        }
    }

    /**
     * Ends the log at the first unflushed segment that does not start where the one before it
     * ends. After power loss a segment can lose whole batches at its end (nothing torn, so
     * nothing to truncate) while the next segment's file survived; keeping that segment would
     * leave a gap in the offsets.
     */
    private void checkContinuity(long fromBaseOffset) throws IOException {
        LogSegment previous = null;
        for (LogSegment segment : List.copyOf(segments.tailMap(fromBaseOffset).values())) {
            if (previous != null && segment.baseOffset() != previous.readNextOffset()) {
                dropSegmentsAfter(previous, "ends at offset " + previous.readNextOffset() + ", not where the next begins");
                return;
            }
            previous = segment;
        }
    }

    private void dropSegmentsAfter(LogSegment damaged, String why) throws IOException {
        for (LogSegment later : List.copyOf(segments.tailMap(damaged.baseOffset(), false).values())) {
            LOG.warn("Recovery dropped segment {} ({} bytes, offsets from {}) because the earlier segment {} {}",
                later.logFile(), later.size(), later.baseOffset(), damaged.logFile(), why);
            segments.remove(later.baseOffset());
            later.deleteFiles();
            dirChanged = true;
        }
    }

    /** Removes what interrupted renames and deletes left behind, and index files without a {@code .log}. */
    private void removeLeftoverFiles() throws IOException {
        TreeSet<Long> logs = segmentBaseOffsetsOnDisk();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path file : files) {
                OptionalLong index = LogFileNames.baseOffset(file, LogFileNames.INDEX_SUFFIX);
                OptionalLong timeIndex = LogFileNames.baseOffset(file, LogFileNames.TIME_INDEX_SUFFIX);
                boolean orphan = (index.isPresent() && !logs.contains(index.getAsLong()))
                    || (timeIndex.isPresent() && !logs.contains(timeIndex.getAsLong()));
                if (orphan || LogFileNames.isLeftover(file)) {
                    LOG.info("Removing leftover file {}", file);
                    Files.deleteIfExists(file);
                    dirChanged = true;
                }
            }
        }
    }

    private TreeSet<Long> segmentBaseOffsetsOnDisk() throws IOException {
        TreeSet<Long> baseOffsets = new TreeSet<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + LogFileNames.LOG_SUFFIX)) {
            for (Path file : files) {
                LogFileNames.baseOffset(file, LogFileNames.LOG_SUFFIX).ifPresent(baseOffsets::add);
            }
        }
        return baseOffsets;
    }

    /**
     * A crash lost records that DeleteRecords had already deleted, so the log ends at
     * {@code endOffset}, below its checkpointed start. As Kafka does, every segment goes and the log
     * continues, empty, at that start: offsets below it were answered as deleted and must never be
     * handed out again. Returns the new, only, segment.
     */
    private static LogSegment startAfresh(Path dir, ConcurrentSkipListMap<Long, LogSegment> segments, long start, long endOffset,
                                  LogConfig config, LogContext context) throws IOException {
        LOG.warn("{} ends at {}, below its checkpointed log start offset {}; it starts afresh, empty, at {}", dir, endOffset,
            start, start);
        for (LogSegment segment : segments.values()) {
            segment.renameToDeleted();
            segment.deleteFiles();
        }
        segments.clear();
        LogSegment fresh = LogSegment.create(dir, start, config, context);
        segments.put(start, fresh);
        IoUtils.fsyncDirectory(dir);
        return fresh;
    }
}
