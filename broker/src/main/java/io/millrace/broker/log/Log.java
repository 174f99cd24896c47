package io.millrace.broker.log;

import io.millrace.common.TopicPartition;
import io.millrace.common.errors.InvalidRecordException;
import io.millrace.common.errors.KafkaStorageException;
import io.millrace.common.errors.OffsetOutOfRangeException;
import io.millrace.common.errors.RecordTooLargeException;
import io.millrace.common.record.EndTransactionMarker;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.utils.Time;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;
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
    private final LogAppends appends = new LogAppends(this);
    private final LogTruncation truncation = new LogTruncation(this);
    private final HighWatermark highWatermark = new HighWatermark();
    private final LogHealth health = new LogHealth(this);
    private final ReentrantLock lock = new ReentrantLock();
    private final ProducerStateManager producers;

    private volatile LeaderEpochCache epochs;
    private volatile LogEnd end;
    private volatile long logStartOffset;

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
            throw log.health.offline("load", e);
        }
    }

    // ---- loading ----------------------------------------------------------------------------

    private void load(long checkpointedRecoveryPoint, boolean hadCleanShutdown, long checkpointedStart) throws IOException {
        LogLoader.Loaded loaded = LogLoader.loadLog(dir, topicPartition, config, context, checkpointedRecoveryPoint,
            hadCleanShutdown, checkpointedStart);
        segments.putAll(loaded.segments());
        end = loaded.end();
        logStartOffset = loaded.logStartOffset();
        epochs = loaded.epochs();
        long endOffset = end.offset();
        highWatermark.restore(endOffset, endOffset);
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
     * @throws RecordTooLargeException a batch is over {@code max.message.bytes}, or (its subclass
     *                                 {@link io.millrace.common.errors.RecordBatchTooLargeException}) the
     *                                 whole append is over {@code segment.bytes}
     * @throws KafkaStorageException   the log is closed or its directory offline
     */
    public LogAppendInfo append(ByteBuffer records) {
        return appends.appendAsLeader(records, RecordBatch.NO_PARTITION_LEADER_EPOCH, true);
    }

    /**
     * {@link #append}, as the leader of {@code leaderEpoch}: every batch's PartitionLeaderEpoch is
     * set to it (outside the CRC), and the first append of a new epoch records that the epoch
     * begins at the log end offset ({@link #leaderEpochCache()}). A negative epoch stamps none.
     *
     * @throws IllegalArgumentException {@code leaderEpoch} is older than the log's latest epoch
     */
    public LogAppendInfo appendAsLeader(ByteBuffer records, int leaderEpoch) {
        return appends.appendAsLeader(records, leaderEpoch, false);
    }

    /**
     * {@link #appendAsLeader} for a group coordinator's batches holding a transactional producer's
     * offsets: they carry the producer's id and epoch but no sequence numbers, so only the epoch
     * is checked. A negative epoch stamps none.
     */
    public LogAppendInfo appendFromCoordinator(ByteBuffer records, int leaderEpoch) {
        return appends.appendAsLeader(records, leaderEpoch, false, true);
    }

    /**
     * Appends a leader's batches as they are, a follower's copy: offsets, leader epochs and
     * timestamps stay the leader's. Every batch gets the checks of {@link #append} but the timestamp
     * bounds; the batches must continue each other's offsets. The leader epochs they begin are
     * recorded, and their producers' state as the leader had it. Does not fsync.
     *
     * @throws UnexpectedAppendOffsetException the first batch starts before the log end offset (after it is a
     *                                         compacted leader's gap)
     * @throws InvalidRecordException          a batch is damaged, or starts before the one before it ended
     * @throws KafkaStorageException           the log is closed or its directory offline
     */
    public LogAppendInfo appendAsFollower(ByteBuffer records) {
        return appends.appendAsFollower(records);
    }

    /**
     * Whether an {@link #append} of {@code records} now might wait: for the append lock, which
     * another thread holds, or on disk, since it would start a new segment (which fsyncs). A quick
     * look for callers that must not block, such as a network thread; it never waits itself. An
     * append racing with it may make the answer stale, and the append is right either way.
     */
    public boolean appendMayWait(ByteBuffer records) {
        return appends.mayWait(records);
    }

    /**
     * Appends a transaction coordinator's marker ending {@code producerId}'s transaction, as the
     * leader of {@code leaderEpoch} (negative: none), and ends the transaction in the producer state.
     *
     * @throws io.millrace.common.errors.InvalidProducerEpochException the producer has a newer epoch
     * @throws io.millrace.common.protocol.ApiException                TRANSACTION_COORDINATOR_FENCED: a newer
     *                                                                 coordinator wrote a marker for it
     */
    public LogAppendInfo appendMarker(long producerId, short producerEpoch, EndTransactionMarker marker, int leaderEpoch) {
        return appends.appendMarker(producerId, producerEpoch, marker, leaderEpoch);
    }

    /** Starts a new active segment at the log end offset, unless the active one is empty. */
    public void roll() {
        appends.rollNow();
    }

    // ---- replication ------------------------------------------------------------------------

    /**
     * Removes every record at or above {@code offset}: the segments after it go whole, the one
     * holding it is replaced by its part before it ({@link LogTruncation}: readers see the log
     * before or after, never between), and the leader epochs, producer state, recovery point and
     * high watermark follow. The batch holding {@code offset} goes whole, so the log then ends at
     * that batch's base offset. Below the log start offset it is {@link #truncateFullyAndStartAt}.
     *
     * @return whether anything was removed ({@code offset} at or past the end removes nothing)
     */
    public boolean truncateTo(long offset) {
        return truncation.truncateTo(offset);
    }

    /** Removes every record and continues, empty, at {@code offset}, which becomes the log start offset. */
    public void truncateFullyAndStartAt(long offset) {
        truncation.truncateFullyAndStartAt(offset);
    }

    /** Where each leader epoch of this log begins; kept in the partition's {@code leader-epoch-checkpoint}. */
    public LeaderEpochCache leaderEpochCache() {
        return epochs;
    }

    /** The latest leader epoch of the log, or {@link LeaderEpochCache#UNDEFINED_EPOCH}. */
    public int latestEpoch() {
        return epochs.latestEpoch();
    }

    /**
     * Records that {@code epoch} begins at {@code startOffset} (a new leader, at its log end
     * offset), ordered with appends; an epoch not newer than the latest is ignored.
     */
    public void assignEpochStartOffset(int epoch, long startOffset) {
        appends.assignEpochStart(epoch, startOffset);
    }

    /** The OffsetForLeaderEpoch answer for {@code epoch} ({@link LeaderEpochCache#endOffsetFor}). */
    public LeaderEpochCache.EpochEndOffset endOffsetForEpoch(int epoch) {
        return epochs.endOffsetFor(epoch, end.offset());
    }

    /**
     * The offset below which every in-sync replica holds the records, within [log start, log end].
     * It follows the log end offset until {@link #setHighWatermarkFollowsLogEnd} turns that off.
     */
    public long highWatermark() {
        return highWatermark.get(logStartOffset, end.offset());
    }

    /** Sets the high watermark, kept within [log start, log end]; returns the value set. */
    public long updateHighWatermark(long offset) {
        return highWatermark.update(offset, logStartOffset, end.offset());
    }

    /**
     * Whether the high watermark follows the log end offset (the default, for a partition without
     * followers) or moves only by {@link #updateHighWatermark} (a replicated partition's).
     */
    public void setHighWatermarkFollowsLogEnd(boolean follows) {
        highWatermark.followEnd(follows);
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
        if (!health.closedOrOffline()) {
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
        return segments.values().stream().mapToLong(LogSegment::size).sum();
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

    /** Publishes a new end; called under the append lock, after the bytes up to it are in place. */
    void publishEnd(LogEnd newEnd) {
        end = newEnd;
    }

    LogDurability durabilityState() {
        return durability;
    }

    HighWatermark highWatermarkState() {
        return highWatermark;
    }

    /** At load: the high watermark last checkpointed. */
    void restoreHighWatermark(long checkpointed) {
        highWatermark.restore(checkpointed, end.offset());
    }

    /** What {@code replication-offset-checkpoint} records ({@link HighWatermark}). */
    long highWatermarkToCheckpoint() {
        return highWatermark.checkpointValue(logStartOffset, end.offset());
    }

    /** The segments whose base offset is below {@code offset}, ascending (a live view). */
    Collection<LogSegment> segmentsBelow(long offset) {
        return segments.headMap(offset).values();
    }

    /** Moves the log start offset, and the leader epochs' start with it; called with both locks held. */
    void advanceLogStartOffset(long offset) throws IOException {
        logStartOffset = offset;
        epochs.truncateFromStart(offset);
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

    /** Every segment by base offset (a live view), for the flush, the roll and retention. */
    NavigableMap<Long, LogSegment> segmentMap() {
        return segments;
    }

    LogContext context() {
        return context;
    }

    // ---- failure and close (LogHealth) ------------------------------------------------------

    /** Whether the log is usable, and what an I/O error does to it. */
    LogHealth health() {
        return health;
    }

    /** Called when another log's error took this log's directory offline. */
    void handleDirOffline() {
        health.handleDirOffline();
    }

    /** Flushes, then closes every segment (trimming and fsyncing its indexes). Idempotent. */
    @Override
    public void close() {
        close(true);
    }

    /** Closes, flushing first if asked and the directory is healthy. */
    void close(boolean flushFirst) {
        health.close(flushFirst, ownsFlusher);
    }

    @Override
    public String toString() {
        return "Log(" + dir + ", offsets " + logStartOffset + " to " + end.offset() + ")";
    }
}
