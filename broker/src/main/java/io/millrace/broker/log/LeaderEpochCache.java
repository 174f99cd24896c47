package io.millrace.broker.log;

import io.millrace.common.TopicPartition;
import io.millrace.common.record.RecordBatch;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first offset of each leader epoch of one partition's log, as Kafka keeps it: the leader
 * records where its epoch begins the first time it appends in it, a follower copies the epochs of
 * the batches it replicates, and after a leader change a follower asks the leader where its own
 * latest epoch ended (OffsetForLeaderEpoch, answered by {@link #endOffsetFor}) and truncates what
 * it holds beyond that, rather than trusting its high watermark.
 *
 * <p>Persisted in the partition directory's {@code leader-epoch-checkpoint}
 * ({@link LeaderEpochCheckpointFile}), rewritten whenever the entries change. Entries are
 * strictly increasing in epoch and non-decreasing in start offset.
 *
 * <p>Thread-safety: every method may be called from any thread; changes are serialized on this
 * object and the latest epoch is readable without a lock. Changes come from the owning
 * {@link Log}, under its append lock, which orders them with the appends they describe.
 */
public final class LeaderEpochCache {

    /** Kafka's UNDEFINED_EPOCH: no epoch (an empty cache, or a batch stored without one). */
    public static final int UNDEFINED_EPOCH = RecordBatch.NO_PARTITION_LEADER_EPOCH;
    /** Kafka's UNDEFINED_EPOCH_OFFSET: no end offset can be given. */
    public static final long UNDEFINED_EPOCH_OFFSET = -1L;

    private static final Logger LOG = LoggerFactory.getLogger(LeaderEpochCache.class);

    private final TopicPartition partition;
    private final LeaderEpochCheckpointFile file;
    private final NavigableMap<Integer, EpochEntry> epochs = new TreeMap<>();
    private volatile int latestEpoch = UNDEFINED_EPOCH;

    /** Where one leader epoch begins. */
    public record EpochEntry(int epoch, long startOffset) {
    }

    /**
     * An answer of {@link #endOffsetFor}: the epoch found and the offset where it ended, or
     * {@link #UNDEFINED} when nothing can be said.
     */
    public record EpochEndOffset(int epoch, long endOffset) {

        public static final EpochEndOffset UNDEFINED = new EpochEndOffset(UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET);
    }

    private LeaderEpochCache(TopicPartition partition, LeaderEpochCheckpointFile file, List<EpochEntry> entries) {
        this.partition = partition;
        this.file = file;
        for (EpochEntry entry : entries) {
            epochs.put(entry.epoch(), entry);
        }
        updateLatest();
    }

    /**
     * The cache of the partition directory {@code dir}, from its checkpoint file; when there is no
     * file, or it does not parse, from the epochs of the batches in {@code segments} (ascending),
     * written to a new file at once so that the next load need not scan the log again.
     */
    static LeaderEpochCache load(Path dir, TopicPartition partition, Collection<LogSegment> segments) throws IOException {
        LeaderEpochCheckpointFile file = new LeaderEpochCheckpointFile(dir);
        Optional<List<EpochEntry>> stored;
        try {
            stored = file.read();
        } catch (IllegalArgumentException e) {
            LOG.warn("Ignoring malformed {} ({}); rebuilding it from the epochs of the stored batches", file.file(),
                e.getMessage());
            stored = Optional.empty();
        }
        if (stored.isPresent()) {
            return new LeaderEpochCache(partition, file, stored.get());
        }
        LeaderEpochCache cache = new LeaderEpochCache(partition, file, scan(segments));
        cache.write();
        return cache;
    }

    /**
     * The epochs of the stored batches: each epoch where its first batch is, skipping batches
     * stored without one and any epoch that is not newer than the one before it. Reads one batch
     * header per batch.
     */
    private static List<EpochEntry> scan(Collection<LogSegment> segments) throws IOException {
        List<EpochEntry> entries = new ArrayList<>();
        int latest = UNDEFINED_EPOCH;
        for (LogSegment segment : segments) {
            long offset = segment.baseOffset();
            for (RecordBatch header = headerAt(segment, offset); header != null; header = headerAt(segment, offset)) {
                if (header.partitionLeaderEpoch() > latest) {
                    latest = header.partitionLeaderEpoch();
                    entries.add(new EpochEntry(latest, header.baseOffset()));
                }
                offset = header.nextOffset();
            }
        }
        return entries;
    }

    private static RecordBatch headerAt(LogSegment segment, long offset) throws IOException {
        FileSlice slice = segment.read(offset, 0, segment.size(), true);
        if (slice == null) {
            return null;
        }
        return BatchHeaders.local().read(slice.channel(), (int) slice.position(), (int) slice.position() + slice.sizeInBytes());
    }

    /**
     * Records that {@code epoch} begins at {@code startOffset}, if it is newer than the latest epoch
     * and starts no earlier. Anything else is ignored, as Kafka's ZooKeeper-era cache ignored it
     * (with a warning when it would go backwards): an epoch already recorded keeps its first start
     * offset, and a late batch of an older leader cannot rewrite history. Returns whether the
     * entry was added.
     *
     * @throws IllegalArgumentException a negative epoch or offset
     */
    public synchronized boolean assign(int epoch, long startOffset) throws IOException {
        if (epoch < 0 || startOffset < 0) {
            throw new IllegalArgumentException("Invalid leader epoch entry: epoch " + epoch + " at offset " + startOffset);
        }
        Map.Entry<Integer, EpochEntry> latest = epochs.lastEntry();
        if (latest != null && (epoch <= latest.getKey() || startOffset < latest.getValue().startOffset())) {
            if (epoch != latest.getKey()) {
                LOG.warn("{}: ignoring leader epoch {} at offset {}, which does not follow the latest entry {}", partition,
                    epoch, startOffset, latest.getValue());
            }
            return false;
        }
        epochs.put(epoch, new EpochEntry(epoch, startOffset));
        updateLatest();
        write();
        LOG.info("{}: leader epoch {} begins at offset {}", partition, epoch, startOffset);
        return true;
    }

    /** The latest epoch recorded, or {@link #UNDEFINED_EPOCH}. Lock-free. */
    public int latestEpoch() {
        return latestEpoch;
    }

    /**
     * The epoch whose records hold {@code offset}: that of the last entry beginning at or before it, as
     * Kafka's ListOffsets answers with an offset; {@link #UNDEFINED_EPOCH} when none does.
     */
    public synchronized int epochForOffset(long offset) {
        int found = UNDEFINED_EPOCH;
        for (EpochEntry entry : epochs.values()) {
            if (entry.startOffset() > offset) {
                break;
            }
            found = entry.epoch();
        }
        return found;
    }

    /** Every entry, ascending. */
    public synchronized List<EpochEntry> entries() {
        return List.copyOf(epochs.values());
    }

    /**
     * Kafka's answer to OffsetForLeaderEpoch: the largest epoch at or below {@code requested} and
     * the offset where it ended, which is the start offset of the first epoch above
     * {@code requested}, or {@code logEndOffset} when {@code requested} is the latest epoch. An
     * epoch below every entry (their records deleted) gets itself with the first entry's start
     * offset. {@link EpochEndOffset#UNDEFINED} for {@link #UNDEFINED_EPOCH}, an empty cache, or an
     * epoch above the latest.
     */
    public synchronized EpochEndOffset endOffsetFor(int requested, long logEndOffset) {
        if (requested == UNDEFINED_EPOCH || epochs.isEmpty()) {
            return EpochEndOffset.UNDEFINED;
        }
        if (requested == latestEpoch) {
            return new EpochEndOffset(requested, logEndOffset);
        }
        Map.Entry<Integer, EpochEntry> higher = epochs.higherEntry(requested);
        if (higher == null) {
            return EpochEndOffset.UNDEFINED;
        }
        Map.Entry<Integer, EpochEntry> floor = epochs.floorEntry(requested);
        int epoch = floor == null ? requested : floor.getKey();
        return new EpochEndOffset(epoch, higher.getValue().startOffset());
    }

    /** Removes the epochs starting at or after {@code endOffset}, whose records a truncation removed. */
    public synchronized void truncateFromEnd(long endOffset) throws IOException {
        List<EpochEntry> removed = removeWhile(epochs.descendingMap().values().iterator(), e -> e.startOffset() >= endOffset);
        if (!removed.isEmpty()) {
            updateLatest();
            write();
            LOG.info("{}: removed leader epochs {} with the records from offset {} on", partition, removed, endOffset);
        }
    }

    /**
     * Forgets the epochs that ended at or before {@code startOffset}, the new log start: the last
     * epoch starting at or below it is kept, as starting there, and the earlier ones go. (So an
     * epoch starting exactly at {@code startOffset} stays as it is.)
     */
    public synchronized void truncateFromStart(long startOffset) throws IOException {
        List<EpochEntry> removed = removeWhile(epochs.values().iterator(), e -> e.startOffset() <= startOffset);
        if (removed.isEmpty()) {
            return;
        }
        EpochEntry current = removed.get(removed.size() - 1);
        epochs.put(current.epoch(), new EpochEntry(current.epoch(), startOffset));
        if (removed.size() > 1 || current.startOffset() != startOffset) {
            write();
        }
    }

    /** Removes every entry: the log was emptied. */
    public synchronized void clear() throws IOException {
        if (!epochs.isEmpty()) {
            epochs.clear();
            updateLatest();
            write();
        }
    }

    private static List<EpochEntry> removeWhile(Iterator<EpochEntry> entries, Predicate<EpochEntry> test) {
        List<EpochEntry> removed = new ArrayList<>();
        while (entries.hasNext()) {
            EpochEntry entry = entries.next();
            if (!test.test(entry)) {
                break;
            }
            removed.add(entry);
            entries.remove();
        }
        return removed;
    }

    private void updateLatest() {
        latestEpoch = epochs.isEmpty() ? UNDEFINED_EPOCH : epochs.lastKey();
    }

    private void write() throws IOException {
        file.write(epochs.values());
    }

    @Override
    public synchronized String toString() {
        return "LeaderEpochCache(" + partition + ", " + epochs.values() + ")";
    }
}
