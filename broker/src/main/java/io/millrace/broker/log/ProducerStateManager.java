package io.millrace.broker.log;

import io.millrace.broker.log.ProducerStateEntry.BatchMetadata;
import io.millrace.common.TopicPartition;
import io.millrace.common.errors.InvalidProducerEpochException;
import io.millrace.common.errors.InvalidRecordException;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.record.EndTransactionMarker;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.TimestampType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The idempotent producers of one partition's log: for each producer id its epoch and last five
 * batches ({@link ProducerStateEntry}). A leader append is first checked against it
 * ({@link #prepareLeaderAppend}): a retry of a remembered batch is answered with the batch's
 * original offsets and nothing is written; a gap, a fenced epoch or a new epoch not starting at 0
 * refuses the append ({@link ProducerSequenceCheck}). Replicated batches update the state without
 * checks ({@link #onReplicatedBatch}), so a follower that becomes leader knows every producer.
 *
 * <p>Persistence: {@link #takeSnapshot} writes {@code <offset>.snapshot} beside the segments (when a
 * segment rolls and on a clean close, {@link ProducerSnapshotFile}); {@link #reload} reads the latest
 * snapshot at or below the log end and replays the batch headers after it, or every batch when there
 * is none. Producers idle for {@code producer.id.expiration.ms} are forgotten ({@link #removeExpired}).
 *
 * <p>Thread-safety: every method is synchronized; the owning {@link Log} calls the mutating ones
 * under its append lock, so the state always describes exactly the batches below the log end.
 */
public final class ProducerStateManager {

    private static final Logger LOG = LoggerFactory.getLogger(ProducerStateManager.class);

    private final TopicPartition partition;
    private final Path dir;
    private final long expirationMs;
    private final Map<Long, ProducerStateEntry> producers = new HashMap<>();
    /** The open transactions by first offset: the lowest is where a read-committed consumer must stop. */
    private final TreeMap<Long, Long> openTransactions = new TreeMap<>();
    private final AbortedTransactions aborted = new AbortedTransactions();

    ProducerStateManager(TopicPartition partition, Path dir, long expirationMs) {
        this.partition = partition;
        this.dir = dir;
        this.expirationMs = expirationMs;
    }

    /**
     * What a leader append would do to the producers: either a duplicate (the remembered batch it
     * retries, to answer with; nothing is appended) or the entries to install once written.
     */
    public record ProducerAppend(BatchMetadata duplicate, Map<Long, ProducerStateEntry> updates) {

        public boolean isDuplicate() {
            return duplicate != null;
        }

        /** The answer to a duplicate: the original batch's offsets and timestamp, as Kafka answers. */
        LogAppendInfo duplicateInfo() {
            return new LogAppendInfo(duplicate.firstOffset(), duplicate.lastOffset(), 0, duplicate.timestamp(),
                duplicate.timestamp(), 0);
        }
    }

    // ---- appends ----------------------------------------------------------------------------

    /**
     * Checks the validated batches of a leader append that will start at {@code firstOffset}, in
     * order, as Kafka does: the first batch that retries a remembered one makes the whole append a
     * duplicate; a batch breaking the rules throws and refuses it. Changes nothing.
     *
     * @param logKeepsAll     whether the log holds every record from offset 0 (see {@link ProducerSequenceCheck})
     * @param fromCoordinator the batches a group coordinator writes for a transactional producer (its offsets in
     *                        a transaction): they carry the producer's id and epoch but no sequence number, so
     *                        only the epoch is checked, as Kafka checks such appends
     *
     * @throws io.millrace.common.errors.OutOfOrderSequenceException   a sequence gap, or a new epoch not at 0
     * @throws io.millrace.common.errors.InvalidProducerEpochException an epoch older than the producer's last
     * @throws io.millrace.common.errors.InvalidRecordException        a producer id without a sequence number
     */
    synchronized ProducerAppend prepareLeaderAppend(ByteBuffer records, long firstOffset, long nowMs, TimestampType type,
                                                    boolean logKeepsAll, boolean fromCoordinator) {
        Map<Long, ProducerStateEntry> updates = null;
        long next = firstOffset;
        RecordBatch batch = RecordBatch.wrap(records, records.position());
        for (int at = records.position(); at < records.limit(); at += batch.sizeInBytes()) {
            batch.reset(records, at);
            long base = next;
            next += batch.lastOffsetDelta() + 1L;
            if (batch.isControlBatch()) {
                throw new InvalidRecordException("Clients may not write control batches: the one at offset " + base
                    + " of the append to " + partition + " is refused");
            }
            if (!batch.hasProducerId()) {
                continue;
            }
            ProducerStateEntry known = producers.get(batch.producerId());
            Optional<BatchMetadata> duplicate = known == null || fromCoordinator ? Optional.empty() : known.findDuplicate(batch);
            if (duplicate.isPresent()) {
                LOG.debug("Producer {} resent its batch of sequences {} to {} to {}: answered with offset {}, not appended",
                    batch.producerId(), batch.baseSequence(), batch.lastSequence(), partition, duplicate.get().firstOffset());
                return new ProducerAppend(duplicate.get(), Map.of());
            }
            // Most appends hold one batch, or none from an idempotent producer: the map is made on demand.
            updates = updates == null ? new HashMap<>(4) : updates;
            ProducerStateEntry current = updates.getOrDefault(batch.producerId(), known);
            if (fromCoordinator) {
                checkEpoch(current, batch);
            } else {
                ProducerSequenceCheck.check(partition, current, batch, logKeepsAll);
            }
            checkTransactional(current, batch);
            long timestamp = type == TimestampType.LOG_APPEND_TIME ? nowMs : batch.maxTimestamp();
            updates.put(batch.producerId(), appended(current, batch, base, timestamp, nowMs));
        }
        return new ProducerAppend(null, updates == null ? Map.of() : updates);
    }

    private void checkEpoch(ProducerStateEntry current, RecordBatch batch) {
        if (current != null && batch.producerEpoch() < current.epoch()) {
            throw new InvalidProducerEpochException("Producer " + batch.producerId() + " wrote with epoch "
                + batch.producerEpoch() + " to " + partition + ", older than its last epoch " + current.epoch());
        }
    }

    /** An idempotent batch inside the producer's open transaction would be committed or aborted with it: refused. */
    private void checkTransactional(ProducerStateEntry current, RecordBatch batch) {
        if (!batch.isTransactional() && current != null && current.inTransaction() && batch.producerEpoch() == current.epoch()) {
            throw new ApiException(Errors.INVALID_TXN_STATE, "Producer " + batch.producerId() + " sent a batch outside a"
                + " transaction to " + partition + " while its transaction from offset " + current.currentTxnFirstOffset()
                + " is open");
        }
    }

    /** Installs what {@link #prepareLeaderAppend} found, once the append is written. */
    synchronized void complete(ProducerAppend append) {
        append.updates().values().forEach(this::install);
    }

    /**
     * Checks a transaction marker a coordinator asks the leader to append for {@code producerId}:
     * an epoch older than the producer's is a fenced producer's, a coordinator epoch older than the
     * last marker's a deposed coordinator's. Changes nothing.
     *
     * @throws InvalidProducerEpochException the marker's producer epoch is older than the producer's
     * @throws ApiException                  TRANSACTION_COORDINATOR_FENCED: an older coordinator epoch
     */
    synchronized void checkMarker(long producerId, short producerEpoch, EndTransactionMarker marker) {
        ProducerStateEntry current = producers.get(producerId);
        if (current == null) {
            return;
        }
        if (producerEpoch < current.epoch()) {
            throw new InvalidProducerEpochException("A transaction marker for producer " + producerId + " on " + partition
                + " has epoch " + producerEpoch + ", older than the producer's " + current.epoch());
        }
        if (marker.coordinatorEpoch() < current.coordinatorEpoch()) {
            throw new ApiException(Errors.TRANSACTION_COORDINATOR_FENCED, "A transaction marker for producer " + producerId
                + " on " + partition + " comes from coordinator epoch " + marker.coordinatorEpoch() + ", older than "
                + current.coordinatorEpoch());
        }
    }

    /**
     * Ends the producer's open transaction at the marker written at {@code markerOffset}: an abort
     * is remembered for read-committed fetches. A marker for a producer without an open
     * transaction here (one that wrote nothing to this partition) only records its epochs.
     */
    private void onMarker(long producerId, short producerEpoch, EndTransactionMarker marker, long markerOffset, long nowMs) {
        ProducerStateEntry current = producers.get(producerId);
        ProducerStateEntry base = current != null ? current : ProducerStateEntry.empty(producerId, producerEpoch, nowMs);
        if (base.inTransaction() && !marker.commit()) {
            aborted.add(new AbortedTransactions.Aborted(producerId, base.currentTxnFirstOffset(), markerOffset));
        }
        install(base.withTxnEnded(producerEpoch, marker.coordinatorEpoch(), nowMs));
    }

    /** Puts {@code entry} in place of the producer's, keeping the index of open transactions in step. */
    private void install(ProducerStateEntry entry) {
        ProducerStateEntry previous = producers.put(entry.producerId(), entry);
        if (previous != null && previous.inTransaction()
            && previous.currentTxnFirstOffset() != entry.currentTxnFirstOffset()) {
            openTransactions.remove(previous.currentTxnFirstOffset());
        }
        if (entry.inTransaction()) {
            openTransactions.put(entry.currentTxnFirstOffset(), entry.producerId());
        }
    }

    /**
     * Records a batch appended without checks, with the offsets already in it: a follower's copy of
     * the leader's log, so that the state moves with leadership. Batches without a producer id and
     * control batches change nothing. Call under the log's append lock, after the batch is written.
     */
    public synchronized void onReplicatedBatch(RecordBatch batch, long nowMs) {
        if (!batch.hasProducerId()) {
            return;
        }
        if (batch.isControlBatch()) {
            EndTransactionMarker marker = EndTransactionMarker.read(batch);
            if (marker != null) {
                onMarker(batch.producerId(), batch.producerEpoch(), marker, batch.baseOffset(), nowMs);
            }
            return;
        }
        ProducerStateEntry current = producers.get(batch.producerId());
        if (current != null && batch.producerEpoch() < current.epoch()) {
            LOG.warn("Producer {} appears on {} at offset {} with epoch {}, older than its last epoch {}", batch.producerId(),
                partition, batch.baseOffset(), batch.producerEpoch(), current.epoch());
        }
        install(appended(current, batch, batch.baseOffset(), batch.maxTimestamp(), nowMs));
    }

    /** {@link #onReplicatedBatch} for every batch of {@code records}, whose offsets are assigned. */
    public synchronized void onReplicatedRecords(ByteBuffer records, long nowMs) {
        RecordBatch batch = RecordBatch.wrap(records, records.position());
        for (int at = records.position(); at < records.limit(); at += batch.sizeInBytes()) {
            onReplicatedBatch(batch.reset(records, at), nowMs);
        }
    }

    private static ProducerStateEntry appended(ProducerStateEntry current, RecordBatch batch, long firstOffset,
                                               long timestamp, long nowMs) {
        ProducerStateEntry base = current != null ? current : ProducerStateEntry.empty(batch.producerId(),
            batch.producerEpoch(), nowMs);
        BatchMetadata metadata = new BatchMetadata(batch.baseSequence(), batch.lastSequence(), firstOffset,
            firstOffset + batch.lastOffsetDelta(), timestamp);
        ProducerStateEntry next = base.withBatch(batch.producerEpoch(), metadata, nowMs);
        return batch.isTransactional() && !next.inTransaction() ? next.withTxnStarted(firstOffset) : next;
    }

    // ---- transactions -----------------------------------------------------------------------

    /** The first offset of the oldest open transaction, if any: a read-committed consumer reads below it. */
    public synchronized OptionalLong firstUnstableOffset() {
        return openTransactions.isEmpty() ? OptionalLong.empty() : OptionalLong.of(openTransactions.firstKey());
    }

    /**
     * The last stable offset of a log with this high watermark: below it every transaction is
     * decided and every record replicated, so a read-committed consumer reads up to it.
     */
    public synchronized long lastStableOffset(long highWatermark) {
        return openTransactions.isEmpty() ? highWatermark : Math.min(highWatermark, openTransactions.firstKey());
    }

    /** The aborted transactions with records in {@code [from, to)}, oldest marker first. */
    public synchronized List<AbortedTransactions.Aborted> abortedTransactions(long from, long to) {
        return aborted.overlapping(from, to);
    }

    // ---- state ------------------------------------------------------------------------------

    /** What the partition remembers of {@code producerId}, if anything. */
    public synchronized Optional<ProducerStateEntry> entry(long producerId) {
        return Optional.ofNullable(producers.get(producerId));
    }

    /** Every producer remembered, in no particular order: a copy, for tests and tools. */
    public synchronized List<ProducerStateEntry> entries() {
        return List.copyOf(producers.values());
    }

    public synchronized int producerCount() {
        return producers.size();
    }

    /** Forgets the producers idle for {@code producer.id.expiration.ms}; returns how many went. */
    public synchronized int removeExpired(long nowMs) {
        // An entry with an open transaction never expires, so the index of open transactions stays right.
        int before = producers.size();
        producers.values().removeIf(entry -> entry.isExpired(nowMs, expirationMs));
        int removed = before - producers.size();
        if (removed > 0) {
            LOG.info("Forgot {} producer ids of {} idle for producer.id.expiration.ms {}", removed, partition, expirationMs);
        }
        return removed;
    }

    // ---- snapshots and reloading -----------------------------------------------------------

    /** Writes the state as the snapshot at {@code offset}, the log end offset it describes. */
    synchronized void takeSnapshot(long offset) throws IOException {
        Path file = ProducerSnapshotFile.write(dir, offset, List.copyOf(producers.values()), aborted.all());
        LOG.debug("Wrote producer snapshot {} with {} producers", file, producers.size());
    }

    /** The offsets of the snapshot files on disk, ascending: for tests and tools. */
    public synchronized List<Long> snapshotOffsets() throws IOException {
        return List.copyOf(ProducerSnapshotFile.list(dir).keySet());
    }

    /**
     * Deletes the snapshots below {@code offset} (the log's first segment after retention), except
     * the latest one, which still holds the producers whose batches are gone.
     */
    synchronized void deleteSnapshotsBelow(long offset) throws IOException {
        aborted.removeEndingBelow(offset);
        TreeMap<Long, Path> snapshots = ProducerSnapshotFile.list(dir);
        if (!snapshots.isEmpty()) {
            snapshots.remove(snapshots.lastKey());
        }
        for (Path file : snapshots.headMap(offset).values()) {
            Files.deleteIfExists(file);
        }
    }

    /**
     * Rebuilds the state of the log ending at {@code endOffset}, on load and after a truncation (a
     * follower dropping a divergent tail; call it once the segments are cut, under the append lock):
     * deletes the snapshots above the end, loads the latest that reads back whole (a damaged one is
     * deleted), then replays the producer batches of {@code segments} from its offset on (from the
     * first batch without one). Expired producers are dropped.
     */
    synchronized void reload(long endOffset, NavigableMap<Long, LogSegment> segments, long nowMs) throws IOException {
        clear();
        long from = loadLatestSnapshot(endOffset);
        ProducerStateReplay.replay(this, segments, from, endOffset, nowMs);
        removeExpired(nowMs);
        LOG.debug("Loaded the state of {} producers of {} from offset {} to {}", producers.size(), partition, from, endOffset);
    }

    /** Loads the latest usable snapshot at or below {@code endOffset}; returns its offset, or -1 for none. */
    private long loadLatestSnapshot(long endOffset) throws IOException {
        TreeMap<Long, Path> snapshots = ProducerSnapshotFile.list(dir);
        for (Path above : snapshots.tailMap(endOffset, false).values()) {
            Files.deleteIfExists(above);
        }
        for (Map.Entry<Long, Path> latest : snapshots.headMap(endOffset, true).descendingMap().entrySet()) {
            Optional<ProducerSnapshotFile.Contents> contents = ProducerSnapshotFile.read(latest.getValue());
            if (contents.isPresent()) {
                contents.get().producers().forEach(this::install);
                contents.get().aborted().forEach(aborted::add);
                return latest.getKey();
            }
            LOG.warn("Producer snapshot {} is damaged; deleting it and rebuilding from the log", latest.getValue());
            Files.deleteIfExists(latest.getValue());
        }
        return -1L;
    }

    /** Forgets every producer and deletes every snapshot: the log restarts empty at a new offset. */
    public synchronized void truncateFully() throws IOException {
        clear();
        for (Path file : ProducerSnapshotFile.list(dir).values()) {
            Files.deleteIfExists(file);
        }
    }

    private void clear() {
        producers.clear();
        openTransactions.clear();
        aborted.clear();
    }

    /** A batch replayed from the log at load: as replicated, last seen at its timestamp (no later than now). */
    void onLoadedBatch(RecordBatch batch, long nowMs) {
        long ts = batch.maxTimestamp();
        onReplicatedBatch(batch, ts >= 0 ? Math.min(ts, nowMs) : nowMs);
    }
}
