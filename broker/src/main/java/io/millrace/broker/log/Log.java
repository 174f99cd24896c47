package io.millrace.broker.log;

import io.millrace.common.TopicPartition;
import io.millrace.common.errors.InvalidRecordException;
import io.millrace.common.errors.KafkaStorageException;
import io.millrace.common.errors.OffsetOutOfRangeException;
import io.millrace.common.errors.RecordTooLargeException;
import io.millrace.common.utils.Time;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log of one partition: a directory {@code <topic>-<partition>} of {@link LogSegment}s, the
 * last of which (the active segment) takes appends. The base offsets of the segments are kept
 * sorted in memory, so finding the segment of an offset is a binary search (the 2011 paper's
 * design), followed by the segment's offset index and a short scan.
 *
 * <p>Thread-safety: any number of threads may call any method; appends are serialized by a lock
 * and reads take no lock. A reader sees a consistent prefix of the log: the writer publishes
 * the new end (offset, segment, byte position) in one volatile write after the bytes are in the
 * file, and reads never look past the end they read first, so no reader sees a half-written
 * batch. Flushes, retention and close serialize on a second lock, taken before the append lock.
 *
 * <p>Durability: {@link #append} returns once the bytes are in the page cache; it never fsyncs.
 * Fsyncs happen on the {@link LogFlusher} thread when the flush policy ({@code flush.messages},
 * {@code flush.ms}) asks, when a segment rolls, on {@link #flush()} and on {@link #close()}. The
 * {@link #recoveryPoint()} is the first offset not yet known to be on disk; {@link #awaitFlushed}
 * completes once it passes an offset. After a crash, everything below the last checkpointed
 * recovery point loads as it is and everything from it on is validated batch by batch.
 *
 * <p>An {@link IOException} takes the log's whole directory offline through the
 * {@link LogDirFailureChannel}; from then on every method throws {@link KafkaStorageException}.
 */
public final class Log implements Closeable {

    /** {@link #offsetForTimestamp} of this gives the log start offset (Kafka's ListOffsets -2). */
    public static final long EARLIEST_TIMESTAMP = -2L;
    /** {@link #offsetForTimestamp} of this gives the log end offset (Kafka's ListOffsets -1). */
    public static final long LATEST_TIMESTAMP = -1L;

    private static final Logger LOG = LoggerFactory.getLogger(Log.class);

    private final Path dir;
    private final Path parentDir;
    private final TopicPartition topicPartition;
    private final LogContext context;
    private final boolean ownsFlusher;
    private volatile LogConfig config;

    private final ConcurrentSkipListMap<Long, LogSegment> segments = new ConcurrentSkipListMap<>();
    private final TimestampLookup timestamps = new TimestampLookup(this);
    private final LogRetention retention = new LogRetention(this);
    private final LogDurability durability = new LogDurability(this);
    private final LogReads reads = new LogReads(this);
    private final ReentrantLock lock = new ReentrantLock();
    private final ProducerStateManager producers;

    private volatile LogEnd end;
    private volatile long logStartOffset;
    private volatile boolean closed;

    private Log(Path dir, LogConfig config, LogContext context, boolean ownsFlusher) {
        this.dir = dir;
        this.parentDir = LogDirFailureChannel.normalize(dir).getParent();
        this.topicPartition = LogFileNames.parsePartitionDirName(dir.getFileName().toString());
        this.config = config;
        this.context = context;
        this.ownsFlusher = ownsFlusher;
        this.producers = new ProducerStateManager(topicPartition, dir, config.producerIdExpirationMs());
    }

    /**
     * Opens (or creates) the log in {@code dir}, which must be named {@code <topic>-<partition>},
     * outside any {@link LogManager}: it gets its own
     * flusher thread, deletes segments at once, and since it has no checkpoint it validates
     * every batch of every segment on the way in.
     */
    public static Log open(Path dir, LogConfig config, Time time) {
        return open(dir, config, LogContext.standalone(time), 0L, false, true, 0L);
    }

    /**
     * Opens (or creates) the log in {@code dir}. After a clean shutdown the segments load as
     * they are (the indexes after a sanity check); otherwise every segment from the one holding
     * {@code recoveryPoint} on is recovered, and the log cut at the first damaged batch.
     */
    public static Log open(Path dir, LogConfig config, LogContext context, long recoveryPoint, boolean hadCleanShutdown) {
        return open(dir, config, context, recoveryPoint, hadCleanShutdown, 0L);
    }

    /**
     * As above, with the log start offset last checkpointed ({@link #deleteRecordsBefore} may have
     * moved it inside a segment); the log starts at the later of it and the first segment's base
     * offset, and never beyond its end.
     */
    public static Log open(Path dir, LogConfig config, LogContext context, long recoveryPoint, boolean hadCleanShutdown,
                           long logStartOffset) {
        return open(dir, config, context, recoveryPoint, hadCleanShutdown, false, logStartOffset);
    }

    private static Log open(Path dir, LogConfig config, LogContext context, long recoveryPoint, boolean hadCleanShutdown,
                            boolean ownsFlusher, long logStartOffset) {
        Log log = new Log(dir, config, context, ownsFlusher);
        try {
            log.load(recoveryPoint, hadCleanShutdown, logStartOffset);
            return log;
        } catch (IOException e) {
            throw log.offline("load", e);
        }
    }

    // ---- loading ----------------------------------------------------------------------------

    private void load(long checkpointedRecoveryPoint, boolean hadCleanShutdown, long checkpointedStart) throws IOException {
        OptionalLong unflushedFrom = hadCleanShutdown ? OptionalLong.empty() : OptionalLong.of(checkpointedRecoveryPoint);
        segments.putAll(LogLoader.load(dir, config, context, unflushedFrom));
        LogSegment active = segments.lastEntry().getValue();
        long endOffset = active.readNextOffset();
        if (checkpointedStart > endOffset) {
            active = LogLoader.startAfresh(dir, segments, checkpointedStart, endOffset, config, context);
            endOffset = checkpointedStart;
        }
        end = new LogEnd(endOffset, active, active.size());
        logStartOffset = Math.max(segments.firstKey(), checkpointedStart);
        producers.reload(endOffset, segments, context.time().milliseconds());
        // A clean shutdown flushed everything, and the loader fsynced whatever it recovered.
        durability.loaded(endOffset, context.time().milliseconds());
        LOG.info("Loaded {} with {} segments, offsets {} to {}", dir, segments.size(), logStartOffset, endOffset);
    }

    // ---- append -----------------------------------------------------------------------------

    /**
     * Validates every batch in {@code records} (CRC, magic, sizes, record count against offset
     * delta, {@code max.message.bytes}), assigns consecutive offsets by rewriting each batch's
     * base offset in place, stamps LogAppendTime if the topic uses it, and appends the bytes as
     * they are. One bad batch rejects the whole append and nothing is written. Batches of idempotent
     * producers are checked against the {@link ProducerStateManager}: a retried batch is answered with
     * its original offsets and not written again. Does not fsync.
     *
     * @throws InvalidRecordException  a batch is malformed or damaged (its subclasses say how)
     * @throws RecordTooLargeException a batch is over {@code max.message.bytes}, or the whole append over {@code segment.bytes}
     * @throws KafkaStorageException   the log is closed or its directory offline
     */
    public LogAppendInfo append(ByteBuffer records) {
        ensureUsable();
        LogConfig config = this.config;
        LogValidator.validate(records, config, context.time().milliseconds());
        lock.lock();
        try {
            ensureUsable();
            long now = context.time().milliseconds();
            var producerAppend = producers.prepareLeaderAppend(records, end.offset(), now, config.timestampType());
            if (producerAppend.isDuplicate()) {
                return producerAppend.duplicateInfo();
            }
            LogAppendInfo info = appendValidated(records, config, now);
            producers.complete(producerAppend);
            return info;
        } finally {
            lock.unlock();
        }
    }

    private LogAppendInfo appendValidated(ByteBuffer records, LogConfig config, long now) {
        LogAppendInfo info = LogValidator.assignOffsets(records, end.offset(), now, config.timestampType());
        LogSegment segment;
        try {
            segment = maybeRoll(records.remaining(), info, now, config);
            segment.append(records);
        } catch (IOException e) {
            throw offline("append to", e);
        }
        // The publication point: readers see the new batches from here on, all of them or none.
        end = new LogEnd(info.lastOffset() + 1, segment, segment.size());
        if (unflushedMessages() >= config.flushMessages()) {
            context.flusher().requestFlush(this);
        }
        return info;
    }

    private LogSegment maybeRoll(int appendSize, LogAppendInfo append, long now, LogConfig config) throws IOException {
        LogSegment active = end.segment();
        boolean roll = active.shouldRoll(appendSize, append.maxTimestamp(), append.lastOffset(), now, config);
        return roll ? rollLocked() : active;
    }

    /** Starts a new active segment at the log end offset, unless the active one is empty. */
    public void roll() {
        lock.lock();
        try {
            ensureUsable();
            rollLocked();
        } catch (IOException e) {
            throw offline("roll", e);
        } finally {
            lock.unlock();
        }
    }

    private LogSegment rollLocked() throws IOException {
        LogEnd current = end;
        LogSegment old = current.segment();
        if (old.size() == 0) {
            return old;
        }
        LogSegment fresh = LogSegment.create(dir, current.offset(), config, context);
        segments.put(fresh.baseOffset(), fresh);
        producers.takeSnapshot(current.offset());
        old.onBecomeInactive();
        end = new LogEnd(current.offset(), fresh, 0);
        durability.markDirDirty();
        // A closed segment never changes again: make it durable now rather than at the next policy flush.
        context.flusher().requestFlush(this);
        LOG.debug("Rolled {} at offset {}", dir, current.offset());
        return fresh;
    }

    // ---- read -------------------------------------------------------------------------------

    /**
     * Up to {@code maxBytes} of the log starting at the batch that holds {@code startOffset}
     * (the slice may end inside a batch, as in Kafka). With {@code minOneBatch} a first batch
     * larger than {@code maxBytes} is returned whole. Reading at the log end gives an empty slice.
     *
     * @throws OffsetOutOfRangeException below the log start offset or beyond the log end offset
     * @throws KafkaStorageException     the log is closed or its directory offline
     */
    public FileSlice read(long startOffset, int maxBytes, boolean minOneBatch) {
        return reads.read(startOffset, maxBytes, minOneBatch);
    }

    /**
     * The first offset whose record has a timestamp at or after {@code timestamp}, or the log
     * start / end offset for {@link #EARLIEST_TIMESTAMP} / {@link #LATEST_TIMESTAMP}; empty if
     * every record is older ({@link TimestampLookup}).
     */
    public Optional<TimestampAndOffset> offsetForTimestamp(long timestamp) {
        return timestamps.firstAtOrAfter(timestamp);
    }

    /**
     * The first record carrying the largest timestamp in the log (Kafka's ListOffsets -3), or
     * empty if the log holds no record with a timestamp ({@link TimestampLookup}).
     */
    public Optional<TimestampAndOffset> offsetOfMaxTimestamp() {
        return timestamps.firstOfMaxTimestamp();
    }

    // ---- flush ------------------------------------------------------------------------------

    /**
     * Fsyncs every segment that may hold unflushed data (and the directory, if segments were
     * created or renamed), moves the recovery point to the end offset seen at the start, and
     * completes the {@link #awaitFlushed} futures it covers. Runs on the caller's thread.
     */
    public void flush() {
        durability.flush();
    }

    /** The flusher's entry point: a log closed or offline since the request has nothing to flush. */
    void flushIfOpen() {
        if (!closed && !isDirOffline()) {
            flush();
        }
    }

    /**
     * A future that completes once every offset up to and including {@code offset} is on disk,
     * or fails with {@link KafkaStorageException} if the log closes or its directory goes offline
     * first. It asks the flusher for a flush, which it shares with every other waiter (group
     * commit). Futures complete on the flusher thread: chain slow work with the async variants.
     */
    public CompletableFuture<Void> awaitFlushed(long offset) {
        return durability.awaitFlushed(offset);
    }

    // ---- retention --------------------------------------------------------------------------

    /**
     * Deletes the oldest closed segments that are past {@code retention.ms} or that
     * {@code retention.bytes} has no room for; never the active segment ({@link LogRetention}).
     * Returns how many segments went.
     */
    public int deleteOldSegments() {
        return retention.deleteOldSegments();
    }

    /**
     * Moves the log start offset forward to {@code offset} (Kafka's DeleteRecords): reads and
     * ListOffsets -2 start there, a fetch below it is out of range, and the segments wholly below
     * it are deleted (their files after {@code file.delete.delay.ms}). An offset at or below the
     * current start changes nothing. The start offset is not made durable here: the
     * {@link LogManager} checkpoints it ({@link LogManager#deleteRecords}).
     *
     * @return the log start offset afterwards, Kafka's low watermark
     * @throws OffsetOutOfRangeException {@code offset} is negative or beyond the log end offset
     */
    public long deleteRecordsBefore(long offset) {
        return retention.deleteRecordsBefore(offset);
    }

    /** Drops the oldest segment from the log (retention): the log now starts at the next one at the earliest. */
    void removeOldest(LogSegment segment) throws IOException {
        segments.remove(segment.baseOffset());
        logStartOffset = Math.max(logStartOffset, segments.firstKey());
        producers.deleteSnapshotsBelow(segments.firstKey());
        segment.renameToDeleted();
        durability.markDirDirty();
    }

    // ---- state ------------------------------------------------------------------------------

    public TopicPartition topicPartition() {
        return topicPartition;
    }

    public Path dir() {
        return dir;
    }

    /** The log directory (the parent of {@link #dir()}) whose health this log shares. */
    public Path logDir() {
        return parentDir;
    }

    public LogConfig config() {
        return config;
    }

    /** Applies changed topic settings to future appends, rolls and retention passes. */
    public void updateConfig(LogConfig newConfig) {
        this.config = newConfig;
    }

    /**
     * The first offset the log serves; retention moves it forward a segment at a time,
     * {@link #deleteRecordsBefore} to any offset up to the end.
     */
    public long logStartOffset() {
        return logStartOffset;
    }

    /** The offset the next appended record will get. */
    public long logEndOffset() {
        return end.offset();
    }

    /** The first offset not known to be fsynced: everything below it survives a crash. */
    public long recoveryPoint() {
        return durability.recoveryPoint();
    }

    public long unflushedMessages() {
        return end.offset() - durability.recoveryPoint();
    }

    /** When the last fsync finished (or the log was loaded), on the injected clock. */
    public long lastFlushTimeMs() {
        return durability.lastFlushMs();
    }

    /** Bytes in all segments. */
    public long size() {
        long size = 0;
        for (LogSegment segment : segments.values()) {
            size += segment.size();
        }
        return size;
    }

    /** The idempotent producers this log has seen, with their last batches. */
    public ProducerStateManager producerState() {
        return producers;
    }

    public int numberOfSegments() {
        return segments.size();
    }

    /** The segments' base offsets, ascending: for tests and tools. */
    public List<Long> segmentBaseOffsets() {
        return List.copyOf(segments.keySet());
    }

    // ---- for TimestampLookup and LogRetention ---------------------------------------------------

    /** The published end: readers never look past it. */
    LogEnd end() {
        return end;
    }

    /** The segments whose base offset is below {@code offset}, ascending (a live view). */
    Collection<LogSegment> segmentsBelow(long offset) {
        return segments.headMap(offset).values();
    }

    /** Moves the log start offset; called with both locks held. */
    void advanceLogStartOffset(long offset) {
        logStartOffset = offset;
    }

    /** The base offset of the segment that holds {@code offset}. */
    long segmentBaseFor(long offset) {
        Long base = segments.floorKey(offset);
        return base == null ? segments.firstKey() : base;
    }

    /** The lock appends take; retention and the max-timestamp lookup take it to see a stable set of segments. */
    ReentrantLock appendLock() {
        return lock;
    }

    /** The lock flushes, retention and close serialize on, taken before the append lock. */
    Object flushLock() {
        return durability.lock();
    }

    /** Every segment by base offset (a live view), for {@link LogDurability}'s flush. */
    NavigableMap<Long, LogSegment> segmentMap() {
        return segments;
    }

    LogContext context() {
        return context;
    }

    // ---- failure and close ------------------------------------------------------------------

    private boolean isDirOffline() {
        return context.failureChannel().isOffline(parentDir);
    }

    boolean closedOrOffline() {
        return closed || isDirOffline();
    }

    void ensureUsable() {
        if (closed) {
            throw new KafkaStorageException("The log of " + topicPartition + " is closed");
        }
        if (isDirOffline()) {
            throw new KafkaStorageException("The log directory " + parentDir + " of " + topicPartition + " is offline");
        }
    }

    /**
     * Reports the error, which takes the directory offline, and gives the exception to throw. An
     * error on a log that was closed meanwhile (deleted, or the broker stopping) is the close pulling
     * a channel from under a reader, not a failing disk: it fails this partition's request only.
     */
    KafkaStorageException offline(String action, IOException cause) {
        if (closed) {
            return new KafkaStorageException("The log of " + topicPartition + " was closed while trying to " + action
                + " it", cause);
        }
        return markOffline(action, cause);
    }

    private KafkaStorageException markOffline(String action, IOException cause) {
        String message = "I/O error while trying to " + action + " " + topicPartition + " in " + parentDir;
        context.failureChannel().markOffline(parentDir, message, cause);
        KafkaStorageException exception = new KafkaStorageException(message, cause);
        durability.failWaiters(exception);
        return exception;
    }

    /** Called when another log's error took this log's directory offline. */
    void handleDirOffline() {
        durability.failWaiters(new KafkaStorageException("The log directory " + parentDir + " of " + topicPartition + " is offline"));
    }

    /** Flushes, then closes every segment (trimming and fsyncing its indexes). Idempotent. */
    @Override
    public void close() {
        close(true);
    }

    /** Closes, flushing first if asked and the directory is healthy. */
    void close(boolean flushFirst) {
        if (closed) {
            return;
        }
        if (flushFirst && !isDirOffline()) {
            try {
                flush();
            } catch (KafkaStorageException e) {
                LOG.warn("Closing {} without a final flush: {}", topicPartition, e.getMessage());
            }
        }
        synchronized (durability.lock()) {
            lock.lock();
            try {
                if (!closed) {
                    closed = true;
                    snapshotProducers(flushFirst);
                    closeSegments();
                }
            } finally {
                lock.unlock();
            }
        }
        durability.failWaiters(new KafkaStorageException("The log of " + topicPartition + " is closed"));
        if (ownsFlusher) {
            context.flusher().close();
        }
    }

    /** A clean close leaves the producers' state at the log end, so the next load replays nothing. */
    private void snapshotProducers(boolean cleanClose) {
        if (!cleanClose || isDirOffline()) {
            return;
        }
        try {
            producers.takeSnapshot(end.offset());
        } catch (IOException e) {
            markOffline("snapshot the producers of", e);
        }
    }

    private void closeSegments() {
        for (LogSegment segment : segments.values()) {
            if (isDirOffline()) {
                segment.closeQuietly();
                continue;
            }
            try {
                segment.close();
            } catch (IOException e) {
                segment.closeQuietly();
                markOffline("close", e);
            }
        }
    }

    @Override
    public String toString() {
        return "Log(" + dir + ", offsets " + logStartOffset + " to " + end.offset() + ")";
    }
}
