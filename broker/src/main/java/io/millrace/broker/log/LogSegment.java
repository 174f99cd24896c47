package io.millrace.broker.log;

import io.millrace.broker.log.FileRecords.BatchLocation;
import io.millrace.broker.log.FileRecords.BatchMatcher;
import io.millrace.common.errors.CorruptRecordException;
import io.millrace.common.errors.InvalidRecordException;
import io.millrace.common.record.RecordBatch;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One segment of a partition's log: the batches from {@link #baseOffset()} up to the next
 * segment's base offset, stored in {@code <base>.log} ({@link FileRecords}) with a sparse
 * {@code <base>.index} ({@link OffsetIndex}) and {@code <base>.timeindex} ({@link TimeIndex}).
 * Offsets inside a segment increase from its base offset, which recovery checks, since a batch's
 * base offset is not covered by its CRC; they are contiguous unless the log cleaner removed
 * records ({@link LogCompaction}), which leaves gaps between batches and inside them.
 *
 * <p>Thread-safety: one writer and many readers. {@link #append}, {@link #recover},
 * {@link #onBecomeInactive}, the renames and {@link #close} are called only under the owning
 * {@link Log}'s lock. {@link #read}, {@link #findOffsetByTimestamp}, {@link #flush} and the
 * getters may run on any thread at the same time; readers pass the byte position up to which the
 * log has published data, and never look past it.
 *
 * <p>Durability: appends reach the page cache only; {@link #flush()} fsyncs the log file and
 * both indexes. {@link #close()} also writes the final time index entry and trims the indexes,
 * so that a segment closed cleanly loads without a scan.
 */
final class LogSegment implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(LogSegment.class);
    private static final int RECOVERY_BUFFER_BYTES = 64 * 1024;
    // rollingTimestamp once the first batch is known to carry no timestamp.
    private static final long NO_FIRST_TIMESTAMP = -2L;

    private final long baseOffset;
    private final FileRecords log;
    private final OffsetIndex offsetIndex;
    private final TimeIndex timeIndex;
    private final int indexIntervalBytes;
    private final int maxIndexSize;
    private final long createdMs;

    // Writer state, guarded by the owning log's lock. indexesMissing is cleared once they are
    // built; rollingTimestamp is the first batch's max
    // timestamp, NO_TIMESTAMP until it is read, NO_FIRST_TIMESTAMP if the batch has none.
    private boolean indexesMissing;
    private int bytesSinceLastIndexEntry;
    private long rollingTimestamp = RecordBatch.NO_TIMESTAMP;

    // Read by retention and timestamp lookups on other threads.
    private volatile long maxTimestampSoFar;
    private volatile long offsetOfMaxTimestampSoFar;
    private volatile boolean deleted;

    private LogSegment(long baseOffset, FileRecords log, OffsetIndex offsetIndex, TimeIndex timeIndex, LogConfig config,
                       long createdMs, boolean indexesMissing) {
        this.baseOffset = baseOffset;
        this.log = log;
        this.offsetIndex = offsetIndex;
        this.timeIndex = timeIndex;
        this.indexIntervalBytes = config.indexIntervalBytes();
        this.maxIndexSize = config.maxIndexSize();
        this.createdMs = createdMs;
        this.indexesMissing = indexesMissing;
        this.maxTimestampSoFar = timeIndex.lastTimestamp();
        this.offsetOfMaxTimestampSoFar = timeIndex.lastOffset();
    }

    /** A new, empty segment whose indexes are preallocated for appends. */
    static LogSegment create(Path dir, long baseOffset, LogConfig config, LogContext context) throws IOException {
        Path logFile = LogFileNames.logFile(dir, baseOffset);
        if (Files.exists(logFile) && Files.size(logFile) > 0) {
            throw new IOException("Cannot create segment " + logFile + ": a non-empty file of that name exists");
        }
        // Index files left without their .log would otherwise be taken for this segment's.
        Files.deleteIfExists(LogFileNames.offsetIndexFile(dir, baseOffset));
        Files.deleteIfExists(LogFileNames.timeIndexFile(dir, baseOffset));
        LogSegment segment = open(dir, baseOffset, config, context);
        segment.indexesMissing = false;
        segment.resizeIndexes(config.maxIndexSize());
        return segment;
    }

    /** A segment from its files as they are; index files that are missing are created empty and reported by {@link #indexProblem}. */
    static LogSegment open(Path dir, long baseOffset, LogConfig config, LogContext context) throws IOException {
        return open(LogFileNames.logFile(dir, baseOffset), LogFileNames.offsetIndexFile(dir, baseOffset),
            LogFileNames.timeIndexFile(dir, baseOffset), baseOffset, config, context);
    }

    /**
     * A new, empty segment in {@code .cleaned} files beside the segment of the same base offset:
     * the log cleaner's copy, written and indexed by {@link #append}, then moved over the original
     * by {@link #takePlaceOf}. Files left by an earlier attempt are discarded.
     */
    static LogSegment createCleaned(Path dir, long baseOffset, LogConfig config, LogContext context) throws IOException {
        Path logFile = LogFileNames.cleanedFile(LogFileNames.logFile(dir, baseOffset));
        Path indexFile = LogFileNames.cleanedFile(LogFileNames.offsetIndexFile(dir, baseOffset));
        Path timeIndexFile = LogFileNames.cleanedFile(LogFileNames.timeIndexFile(dir, baseOffset));
        for (Path file : new Path[] {logFile, indexFile, timeIndexFile}) {
            Files.deleteIfExists(file);
        }
        LogSegment segment = open(logFile, indexFile, timeIndexFile, baseOffset, config, context);
        segment.indexesMissing = false;
        segment.resizeIndexes(config.maxIndexSize());
        return segment;
    }

    /**
     * Moves this cleaned copy's files over {@code original}'s. The original's indexes go first, so
     * a crash at any point leaves a {@code .log} whose indexes are either its own or missing (and
     * then rebuilt at load); the {@code .log} itself is replaced in one atomic rename. Readers
     * already in the original keep its open files.
     */
    void takePlaceOf(LogSegment original, Path dir) throws IOException {
        original.markReplaced();
        Files.deleteIfExists(LogFileNames.offsetIndexFile(dir, baseOffset));
        Files.deleteIfExists(LogFileNames.timeIndexFile(dir, baseOffset));
        IoUtils.fsyncDirectory(dir);
        log.replace(LogFileNames.logFile(dir, baseOffset));
        offsetIndex.renameTo(LogFileNames.offsetIndexFile(dir, baseOffset));
        timeIndex.renameTo(LogFileNames.timeIndexFile(dir, baseOffset));
        IoUtils.fsyncDirectory(dir);
    }

    private static LogSegment open(Path logFile, Path indexFile, Path timeIndexFile, long baseOffset, LogConfig config,
                                   LogContext context) throws IOException {
        boolean indexesMissing = !Files.exists(indexFile) || !Files.exists(timeIndexFile);
        FileRecords log = FileRecords.open(logFile, context.opener());
        OffsetIndex offsetIndex = null;
        try {
            offsetIndex = new OffsetIndex(indexFile, baseOffset, context.opener());
            TimeIndex timeIndex = new TimeIndex(timeIndexFile, baseOffset, context.opener());
            return new LogSegment(baseOffset, log, offsetIndex, timeIndex, config, context.time().milliseconds(),
                indexesMissing);
        } catch (IOException | RuntimeException e) {
            log.close();
            if (offsetIndex != null) {
                offsetIndex.closeQuietly();
            }
            throw e;
        }
    }

    long baseOffset() {
        return baseOffset;
    }

    /** Bytes in the {@code .log} file; on the active segment this is the writer's published size. */
    int size() {
        return log.sizeInBytes();
    }

    Path logFile() {
        return log.file();
    }

    boolean isDeleted() {
        return deleted;
    }

    /** Largest batch max timestamp seen so far, or -1. */
    long maxTimestampSoFar() {
        return maxTimestampSoFar;
    }

    /**
     * Writes already validated batches, whose offsets are assigned, at the end of the segment,
     * then indexes them. The owning log publishes the new end afterwards.
     */
    void append(ByteBuffer records) throws IOException {
        int start = log.append(records);
        RecordBatch batch = RecordBatch.wrap(records, records.position());
        for (int at = records.position(); at < records.limit(); at += batch.sizeInBytes()) {
            batch.reset(records, at);
            if (start == 0 && at == records.position()) {
                rollingTimestamp = batch.maxTimestamp() >= 0 ? batch.maxTimestamp() : NO_FIRST_TIMESTAMP;
            }
            indexBatch(batch, start + at - records.position());
        }
    }

    /** Adds index entries for a batch at {@code position} once enough bytes passed since the last one. */
    private void indexBatch(RecordBatch batch, int position) {
        if (batch.maxTimestamp() > maxTimestampSoFar) {
            maxTimestampSoFar = batch.maxTimestamp();
            offsetOfMaxTimestampSoFar = batch.baseOffset();
        }
        // A full index just stops getting entries (lookups scan further); the log rolls before its next append.
        if (bytesSinceLastIndexEntry > indexIntervalBytes && !offsetIndex.isFull()) {
            offsetIndex.append(batch.baseOffset(), position);
            timeIndex.maybeAppend(maxTimestampSoFar, offsetOfMaxTimestampSoFar);
            bytesSinceLastIndexEntry = 0;
        }
        bytesSinceLastIndexEntry += batch.sizeInBytes();
    }

    /**
     * A slice starting at the batch that holds {@code startOffset} (or the first after it), of at
     * most {@code maxSize} bytes, or of the whole first batch if {@code minOneBatch}, never past
     * {@code maxPosition}. Null if no batch at or after {@code startOffset} ends before
     * {@code maxPosition}. hot path: allocates only the result.
     */
    FileSlice read(long startOffset, int maxSize, int maxPosition, boolean minOneBatch) throws IOException {
        int startPosition = offsetIndex.lookup(startOffset);
        BatchLocation first = log.search(BatchMatcher.LAST_OFFSET_AT_LEAST, startOffset, startPosition, maxPosition);
        if (first == null) {
            return null;
        }
        int budget = minOneBatch ? Math.max(maxSize, first.size()) : maxSize;
        return log.slice(first.position(), Math.min(maxPosition - first.position(), budget));
    }

    /**
     * The batch at {@code position} in {@code scratch} (or a larger buffer, returned), checked by
     * {@link RecordBatch#ensureIntact()}: how the cleaner walks a closed segment.
     */
    ByteBuffer readBatchAt(int position, ByteBuffer scratch) throws IOException {
        return log.readValidBatch(position, scratch);
    }

    /** An empty slice at {@code position}: what a fetch at the log end gets. */
    FileSlice emptySlice(int position) {
        return log.slice(position, 0);
    }

    /** The first record with a timestamp at or after {@code timestamp} below {@code maxPosition}, or null. */
    TimestampAndOffset findOffsetByTimestamp(long timestamp, int maxPosition) throws IOException {
        long startOffset = timeIndex.lookupStart(timestamp);
        int startPosition = offsetIndex.lookup(startOffset);
        BatchLocation location = log.search(BatchMatcher.MAX_TIMESTAMP_AT_LEAST, timestamp, startPosition, maxPosition);
        if (location == null) {
            return null;
        }
        ByteBuffer batch = ByteBuffer.allocate(location.size());
        IoUtils.readFully(log.channel(), batch, location.position());
        return RecordTimestamps.firstAtOrAfter(RecordBatch.wrap(batch.flip(), 0), timestamp);
    }

    /**
     * Rebuilds both indexes from the {@code .log} file and truncates it at the first batch that is
     * torn, fails {@link RecordBatch#ensureIntact()}, or starts before the previous batch ended. Logs what
     * it cut at WARN and returns the number of bytes truncated.
     */
    int recover() throws IOException {
        resetIndexes();
        ByteBuffer scratch = ByteBuffer.allocate(RECOVERY_BUFFER_BYTES);
        int position = 0;
        long nextOffset = baseOffset;
        String damage = null;
        while (position < log.sizeInBytes() && damage == null) {
            try {
                scratch = log.readValidBatch(position, scratch);
                RecordBatch batch = RecordBatch.wrap(scratch, 0);
                checkOffsets(batch, nextOffset);
                indexBatch(batch, position);
                position += batch.sizeInBytes();
                nextOffset = batch.nextOffset();
            } catch (InvalidRecordException e) {
                damage = e.getMessage();
            }
        }
        int truncated = log.sizeInBytes() - position;
        if (truncated > 0) {
            LOG.warn("Recovery truncated {}: dropped {} bytes from position {}, offsets {} and later ({})",
                log.file(), truncated, position, nextOffset, damage);
            log.truncateTo(position);
        }
        return truncated;
    }

    private void checkOffsets(RecordBatch batch, long expectedBaseOffset) {
        if (batch.baseOffset() < expectedBaseOffset) {
            throw new CorruptRecordException("Batch has base offset " + batch.baseOffset() + ", before offset "
                + expectedBaseOffset + " where the batch before it ended");
        }
        if (batch.lastOffset() - baseOffset > Integer.MAX_VALUE) {
            throw new CorruptRecordException("Batch ending at offset " + batch.lastOffset()
                + " is too far from the segment's base offset " + baseOffset);
        }
    }

    private void resetIndexes() throws IOException {
        offsetIndex.truncateToEntries(0);
        timeIndex.truncateToEntries(0);
        resizeIndexes(maxIndexSize);
        bytesSinceLastIndexEntry = 0;
        maxTimestampSoFar = RecordBatch.NO_TIMESTAMP;
        offsetOfMaxTimestampSoFar = baseOffset;
        rollingTimestamp = RecordBatch.NO_TIMESTAMP;
        indexesMissing = false;
    }

    /**
     * Why the indexes cannot be used as they are (missing files, torn or unordered entries), or
     * null if they can. A segment with a problem is {@link #recover}ed, which rebuilds them.
     */
    String indexProblem() {
        if (indexesMissing) {
            return "index files are missing";
        }
        String problem = offsetIndex.sanityCheck(size());
        if (problem == null) {
            problem = timeIndex.sanityCheck(size());
        }
        return problem;
    }

    /** Where a scan for {@code offset} starts: the position of the last index entry at or below it. */
    int positionOfOffset(long offset) {
        return offsetIndex.lookup(offset);
    }

    /** The {@code .log} file's channel, for header scans ({@link BatchHeaders}) up to {@link #size()}. */
    FileChannel channel() {
        return log.channel();
    }

    /** The offset after the segment's last batch: a short scan from the last index entry. */
    long readNextOffset() throws IOException {
        return log.nextOffsetAfter(offsetIndex.lastPosition(), baseOffset);
    }

    /**
     * Whether an append of {@code appendSize} bytes ending at {@code lastOffset}, whose largest
     * timestamp is {@code appendMaxTimestamp}, must go to a new segment.
     */
    boolean shouldRoll(int appendSize, long appendMaxTimestamp, long lastOffset, long nowMs, LogConfig config)
        throws IOException {
        if (size() == 0) {
            return false;
        }
        return size() > config.segmentBytes() - appendSize
            || timeWaitedForRoll(appendMaxTimestamp, nowMs) > config.segmentMs()
            || offsetIndex.isFull() || timeIndex.isFull()
            || lastOffset - baseOffset > Integer.MAX_VALUE;
    }

    /**
     * Kafka's rule: the incoming batch's timestamp minus the segment's first batch timestamp, so
     * that producer clocks far from the broker's do not roll on every append; segments without
     * timestamps fall back to the broker clock since the segment was created or opened.
     */
    private long timeWaitedForRoll(long appendMaxTimestamp, long nowMs) throws IOException {
        if (rollingTimestamp == RecordBatch.NO_TIMESTAMP) {
            RecordBatch first = BatchHeaders.local().read(log.channel(), 0, size());
            rollingTimestamp = first != null && first.maxTimestamp() >= 0 ? first.maxTimestamp() : NO_FIRST_TIMESTAMP;
        }
        return rollingTimestamp >= 0 && appendMaxTimestamp >= 0 ? appendMaxTimestamp - rollingTimestamp : nowMs - createdMs;
    }

    /** Retention by time compares this with the clock: the largest timestamp, else the file's mtime. */
    long largestTimestamp() throws IOException {
        long max = maxTimestampSoFar;
        return max >= 0 ? max : log.lastModifiedMs();
    }

    /** Called when a newer segment takes the appends: records the final timestamp entry and trims the indexes. */
    void onBecomeInactive() throws IOException {
        log.seal();
        timeIndex.appendFinal(maxTimestampSoFar, offsetOfMaxTimestampSoFar);
        offsetIndex.trimToValidSize();
        timeIndex.trimToValidSize();
    }

    /** Preallocates (or trims) the index files to {@code size} bytes, for the segment that takes appends. */
    void resizeIndexes(int size) throws IOException {
        offsetIndex.resize(size);
        timeIndex.resize(size);
    }

    void flush() throws IOException {
        log.flush();
        offsetIndex.flush();
        timeIndex.flush();
    }

    /** Renames the three files to {@code *.deleted}: from now on the segment is gone, though still readable. */
    void renameToDeleted() throws IOException {
        deleted = true;
        log.renameTo(LogFileNames.deletedFile(log.file()));
        offsetIndex.renameTo(LogFileNames.deletedFile(offsetIndex.file()));
        timeIndex.renameTo(LogFileNames.deletedFile(timeIndex.file()));
    }

    /**
     * {@link #renameToDeleted}, first removing files of an earlier segment of the same base offset
     * still waiting for their delayed delete (readers holding them keep their open descriptors).
     */
    void retire(Path dir) throws IOException {
        for (Path file : List.of(LogFileNames.logFile(dir, baseOffset), LogFileNames.offsetIndexFile(dir, baseOffset),
            LogFileNames.timeIndexFile(dir, baseOffset))) {
            Files.deleteIfExists(LogFileNames.deletedFile(file));
        }
        renameToDeleted();
    }

    /**
     * Marks the segment as gone without touching its files' names, which another segment has taken
     * over (a truncation wrote its shorter copy there): reads already under way may finish on the
     * open files, and an error in them is the removal's doing, not the disk's.
     */
    void markReplaced() {
        deleted = true;
    }

    /** Closes the files and removes them. */
    void deleteFiles() throws IOException {
        closeQuietly();
        log.deleteIfExists();
        offsetIndex.deleteIfExists();
        timeIndex.deleteIfExists();
    }

    /** Writes the final time index entry, trims and fsyncs the indexes, closes the files. */
    @Override
    public void close() throws IOException {
        try {
            timeIndex.appendFinal(maxTimestampSoFar, offsetOfMaxTimestampSoFar);
            offsetIndex.close();
            timeIndex.close();
        } finally {
            log.close();
        }
    }

    /** Closes the files as they are, for a segment being deleted or in a failed directory. */
    void closeQuietly() {
        offsetIndex.closeQuietly();
        timeIndex.closeQuietly();
        try {
            log.close();
        } catch (IOException ignored) {
            // Abandoning the file; there is nothing left to protect.
        }
    }

    @Override
    public String toString() {
        return "LogSegment(baseOffset=" + baseOffset + ", size=" + size() + ")";
    }
}
