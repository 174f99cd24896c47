package io.millrace.broker.log;

import io.millrace.broker.log.AbortedTransactions.Aborted;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.Record;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.common.record.RecordIterator;
import io.millrace.common.utils.ByteBufferOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One cleaning pass over a {@link Log} whose {@code cleanup.policy} holds compact: Kafka's log
 * compaction. Every record whose key has a later record is removed, and so is a key's last record
 * when it is a tombstone (a null value) in a segment whose largest timestamp is older than
 * {@code delete.retention.ms}; records without a key stay. Kept records keep their offsets, so a
 * compacted log has gaps: consumers read each batch's offsets, not a count.
 *
 * <p>Only closed segments below the last stable offset (the high watermark, or the first offset of
 * a transaction still open), whose largest timestamp is at least
 * {@code min.compaction.lag.ms} old, are cleaned, so no record a consumer or follower may still
 * lose to a truncation is touched, and the active segment never is. A pass maps each key to its
 * last offset over as many of those segments as the {@link KeyOffsetMap} holds, then rewrites
 * runs of mapped segments that fit one segment together into a {@code .cleaned} copy, indexed as it
 * is written, which takes the first one's place under the log's locks ({@link LogSegment#takePlaceOf})
 * while the others are retired: small cleaned segments merge, so a compacted partition does not keep a
 * file for every segment it rolled. A lone segment with nothing to remove is left as it is.
 *
 * <p>Within a batch the surviving records keep their offset deltas, and the batch keeps its
 * header's offset range, producer id, epoch and base sequence (so an idempotent producer's
 * sequence check still finds its last batch). A batch left with no record is dropped, unless it
 * is the last of the copy (so the copy still ends where the next segment begins and a fetch never
 * falls into a gap between segments) or its producer's last in its segment: those stay as empty
 * batches, as Kafka keeps them. Reading and writing run without the log's locks; only the swap
 * takes them, and is skipped if retention or a truncation removed the segment meanwhile.
 *
 * <p>The records of an aborted transaction are removed whatever their keys, and never count as
 * a key's later record: a consumer never saw them, and the value the transaction would have
 * replaced must stay. Transaction markers stay.
 */
final class LogCompaction {

    private static final Logger LOG = LoggerFactory.getLogger(LogCompaction.class);
    private static final int READ_BUFFER_BYTES = 64 * 1024;

    /** What a pass did; {@code cleanedUpTo} is the offset after the last segment it mapped. */
    record Outcome(int segmentsMapped, int segmentsRewritten, long bytesBefore, long bytesAfter, long recordsRemoved,
                   long cleanedUpTo) {
    }

    private final Log log;
    private final long memoryBytes;
    private ByteBuffer scratch = ByteBuffer.allocate(READ_BUFFER_BYTES);
    /** The aborted transactions of the segments a pass cleans, by producer. */
    private Map<Long, List<Aborted>> abortedByProducer = Map.of();

    LogCompaction(Log log, long memoryBytes) {
        this.log = log;
        this.memoryBytes = memoryBytes;
    }

    /**
     * The closed segments that may be cleaned now, oldest first: each ends at or below the high
     * watermark and its largest timestamp is at least {@code min.compaction.lag.ms} old.
     */
    List<LogSegment> cleanableSegments(long now) throws IOException {
        ReentrantLock lock = log.appendLock();
        lock.lock();
        try {
            long activeBase = log.end().segment().baseOffset();
            long highWatermark = log.producerState().lastStableOffset(log.highWatermark());
            List<LogSegment> closed = new ArrayList<>(log.segmentsBelow(activeBase));
            List<LogSegment> cleanable = new ArrayList<>(closed.size());
            for (int i = 0; i < closed.size(); i++) {
                LogSegment segment = closed.get(i);
                long end = i + 1 < closed.size() ? closed.get(i + 1).baseOffset() : activeBase;
                if (end > highWatermark || now - segment.largestTimestamp() < log.config().minCompactionLagMs()) {
                    break;
                }
                cleanable.add(segment);
            }
            return cleanable;
        } finally {
            lock.unlock();
        }
    }

    /** Cleans {@code segments} (from {@link #cleanableSegments}) as far as the key map reaches. */
    Outcome clean(List<LogSegment> segments, long now) throws IOException {
        if (segments.isEmpty()) {
            return new Outcome(0, 0, 0, 0, 0, -1);
        }
        long first = segments.get(0).baseOffset();
        long end = nextBase(segments, segments.size() - 1);
        abortedByProducer = new HashMap<>();
        for (Aborted aborted : log.producerState().abortedTransactions(first, end)) {
            abortedByProducer.computeIfAbsent(aborted.producerId(), id -> new ArrayList<>()).add(aborted);
        }
        KeyOffsetMap keys = new KeyOffsetMap(end - first, memoryBytes);
        int mapped = map(segments, keys);
        if (mapped == 0) {
            LOG.warn("Cannot clean {}: the keys of its segment {} alone do not fit log.cleaner.dedupe.buffer.size {}",
                log.topicPartition(), segments.get(0).baseOffset(), memoryBytes);
            return new Outcome(0, 0, 0, 0, 0, -1);
        }
        long deleteHorizon = now - log.config().deleteRetentionMs();
        List<LogSegment> cleanable = segments.subList(0, mapped);
        int rewritten = 0;
        long before = 0;
        long after = 0;
        long removed = 0;
        for (List<LogSegment> group : groups(cleanable)) {
            List<Survey> surveys = new ArrayList<>(group.size());
            long removable = 0;
            for (LogSegment segment : group) {
                Survey survey = survey(segment, keys, segment.largestTimestamp() < deleteHorizon);
                surveys.add(survey);
                removable += survey.removable();
            }
            if (group.size() == 1 && removable == 0) {
                continue;
            }
            long groupBytes = group.stream().mapToLong(LogSegment::size).sum();
            LogSegment cleaned = rewrite(group, surveys, keys, deleteHorizon);
            if (cleaned != null) {
                rewritten += group.size();
                before += groupBytes;
                after += cleaned.size();
                removed += removable;
            }
        }
        Outcome outcome = new Outcome(mapped, rewritten, before, after, removed, nextBase(segments, mapped - 1));
        if (rewritten > 0) {
            LOG.info("Cleaned {}: {} of {} segments rewritten below offset {}, {} records removed, {} bytes to {}",
                log.topicPartition(), rewritten, mapped, outcome.cleanedUpTo(), removed, before, after);
        }
        return outcome;
    }

    /**
     * Runs of consecutive segments that fit one segment together: at most {@code segment.bytes} as
     * they are now (cleaning only shrinks them) and offsets within an int of the first base offset,
     * as the index needs. Each run becomes one segment, so a compacted partition does not keep a file
     * for every segment it ever rolled.
     */
    private List<List<LogSegment>> groups(List<LogSegment> segments) {
        List<List<LogSegment>> groups = new ArrayList<>();
        List<LogSegment> group = new ArrayList<>();
        long bytes = 0;
        for (int i = 0; i < segments.size(); i++) {
            LogSegment segment = segments.get(i);
            long end = nextBase(segments, i);
            boolean fits = bytes + segment.size() <= log.config().segmentBytes()
                && (group.isEmpty() || end - 1 - group.get(0).baseOffset() <= Integer.MAX_VALUE);
            if (!group.isEmpty() && !fits) {
                groups.add(group);
                group = new ArrayList<>();
                bytes = 0;
            }
            group.add(segment);
            bytes += segment.size();
        }
        if (!group.isEmpty()) {
            groups.add(group);
        }
        return groups;
    }

    /** The base offset of the segment after {@code segments.get(index)}. */
    private long nextBase(List<LogSegment> segments, int index) {
        if (index + 1 < segments.size()) {
            return segments.get(index + 1).baseOffset();
        }
        Long next = log.segmentMap().higherKey(segments.get(index).baseOffset());
        return next == null ? log.end().offset() : next;
    }

    /**
     * Records each key's last offset, segment by segment; returns how many segments were mapped
     * whole before the map filled. Offsets from a segment mapped in part still prove a later record.
     */
    private int map(List<LogSegment> segments, KeyOffsetMap keys) throws IOException {
        for (int i = 0; i < segments.size(); i++) {
            boolean whole = forEachBatch(segments.get(i), batch -> isAborted(batch) || forEachRecord(batch,
                record -> !record.hasKey() || keys.put(record.key(), record.offset())));
            if (!whole) {
                return i;
            }
        }
        return segments.size();
    }

    /**
     * How many records of a segment go, its last batch's base offset, and the last batch of each
     * idempotent producer in it, which stays as a header if all its records go.
     */
    private record Survey(long removable, long lastBatch, Set<Long> producersLastBatches) {
    }

    private Survey survey(LogSegment segment, KeyOffsetMap keys, boolean tombstonesGo) throws IOException {
        long[] removable = {0};
        long[] lastBatch = {-1};
        Map<Long, Long> lastBatchOfProducer = new HashMap<>();
        forEachBatch(segment, batch -> {
            lastBatch[0] = batch.baseOffset();
            if (batch.hasProducerId()) {
                lastBatchOfProducer.put(batch.producerId(), batch.baseOffset());
            }
            boolean aborted = isAborted(batch);
            return forEachRecord(batch, record -> {
                if (aborted || !keeps(record, keys, tombstonesGo)) {
                    removable[0]++;
                }
                return true;
            });
        });
        return new Survey(removable[0], lastBatch[0], new HashSet<>(lastBatchOfProducer.values()));
    }

    private static boolean keeps(Record record, KeyOffsetMap keys, boolean tombstonesGo) {
        if (!record.hasKey()) {
            return true;
        }
        long last = keys.get(record.key());
        if (last > record.offset()) {
            return false;
        }
        return record.hasValue() || !tombstonesGo;
    }

    /**
     * Writes the cleaned copy of a run of segments as one segment at the first one's base offset and
     * swaps it in; null if a segment of the run went meanwhile (the copy is then discarded). The
     * run's last batch stays, as a header if need be, so the copy ends where the next segment begins.
     */
    private LogSegment rewrite(List<LogSegment> group, List<Survey> surveys, KeyOffsetMap keys, long deleteHorizon)
        throws IOException {
        Set<Long> headersKept = new HashSet<>();
        surveys.forEach(survey -> headersKept.addAll(survey.producersLastBatches()));
        headersKept.add(surveys.get(surveys.size() - 1).lastBatch());
        LogSegment first = group.get(0);
        LogSegment cleaned = LogSegment.createCleaned(log.dir(), first.baseOffset(), log.config(), log.context());
        try {
            for (LogSegment segment : group) {
                boolean tombstonesGo = segment.largestTimestamp() < deleteHorizon;
                forEachBatch(segment, batch -> {
                    ByteBuffer kept = batch.isControlBatch() ? batch.slice()
                        : cleanBatch(batch, isAborted(batch) ? null : keys, tombstonesGo,
                            headersKept.contains(batch.baseOffset()));
                    if (kept != null) {
                        cleaned.append(kept);
                    }
                    return true;
                });
            }
            cleaned.onBecomeInactive();
            cleaned.flush();
        } catch (IOException | RuntimeException e) {
            cleaned.deleteFiles();
            throw e;
        }
        if (!swap(group, cleaned)) {
            cleaned.deleteFiles();
            return null;
        }
        return cleaned;
    }

    /** Whether {@code batch} belongs to a transaction that ended aborted. */
    private boolean isAborted(RecordBatch batch) {
        if (!batch.isTransactional() || batch.isControlBatch()) {
            return false;
        }
        for (Aborted aborted : abortedByProducer.getOrDefault(batch.producerId(), List.of())) {
            if (aborted.firstOffset() <= batch.baseOffset() && batch.baseOffset() < aborted.lastOffset()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The batch with only its kept records, the batch itself if all stay, or null if it goes. With
     * {@code keys} null (an aborted transaction's batch) no record stays.
     */
    private static ByteBuffer cleanBatch(RecordBatch batch, KeyOffsetMap keys, boolean tombstonesGo, boolean keepHeader) {
        List<Record> kept = new ArrayList<>();
        int count = 0;
        try (RecordIterator records = batch.records()) {
            while (records.hasNext()) {
                Record record = records.next();
                count++;
                if (keys != null && keeps(record, keys, tombstonesGo)) {
                    kept.add(record);
                }
            }
        }
        if (kept.size() == count) {
            return batch.slice();
        }
        if (kept.isEmpty() && !keepHeader) {
            return null;
        }
        // An empty batch is written uncompressed: a codec would add its own framing around nothing.
        CompressionType compression = kept.isEmpty() ? CompressionType.NONE : batch.compressionType();
        RecordBatchBuilder builder = new RecordBatchBuilder(new ByteBufferOutputStream(batch.sizeInBytes()), compression,
            batch.timestampType(), batch.baseOffset(), batch.maxTimestamp())
            .producerState(batch.producerId(), batch.producerEpoch(), batch.baseSequence(), batch.isTransactional())
            .partitionLeaderEpoch(batch.partitionLeaderEpoch());
        for (Record record : kept) {
            builder.appendKept(record);
        }
        return builder.buildKeeping(batch);
    }

    /**
     * Puts the cleaned copy in the place of the run's first segment, then retires the others, if every
     * one of them is still the log's. A crash between the two leaves later segments whose offsets the
     * copy already holds; loading drops them ({@link LogLoader}).
     */
    private boolean swap(List<LogSegment> group, LogSegment cleaned) throws IOException {
        LogSegment first = group.get(0);
        List<LogSegment> merged = group.subList(1, group.size());
        synchronized (log.flushLock()) {
            ReentrantLock lock = log.appendLock();
            lock.lock();
            try {
                log.health().ensureUsable();
                for (LogSegment original : group) {
                    if (log.segmentMap().get(original.baseOffset()) != original || original.isDeleted()) {
                        return false;
                    }
                }
                try {
                    cleaned.takePlaceOf(first, log.dir());
                    log.segmentMap().put(cleaned.baseOffset(), cleaned);
                    for (LogSegment original : merged) {
                        log.segmentMap().remove(original.baseOffset());
                        original.retire(log.dir());
                    }
                    IoUtils.fsyncDirectory(log.dir());
                } catch (IOException e) {
                    throw log.health().offline("clean", e);
                }
            } finally {
                lock.unlock();
            }
        }
        // Reads already in the originals finish on their open files; those go after the usual delay.
        log.context().schedule(() -> {
            first.closeQuietly();
            for (LogSegment original : merged) {
                try {
                    original.deleteFiles();
                } catch (IOException e) {
                    LOG.warn("Could not remove {}, merged into a cleaned segment: {}", original.logFile(), e.toString());
                }
            }
        }, log.config().fileDeleteDelayMs());
        return true;
    }

    /** What is done with each batch of a segment; false stops the walk. */
    private interface BatchVisitor {
        boolean visit(RecordBatch batch) throws IOException;
    }

    /**
     * Reads a segment's batches in order, each checked ({@link LogSegment#readBatchAt}) and valid only
     * until the next is read; returns false if the visitor stopped the walk.
     */
    private boolean forEachBatch(LogSegment segment, BatchVisitor visitor) throws IOException {
        for (int position = 0; position < segment.size(); ) {
            scratch = segment.readBatchAt(position, scratch);
            RecordBatch batch = RecordBatch.wrap(scratch, 0);
            position += batch.sizeInBytes();
            if (!visitor.visit(batch)) {
                return false;
            }
        }
        return true;
    }

    /** Visits the records of a batch, none of a control batch's (they are not compacted); false stops. */
    private static boolean forEachRecord(RecordBatch batch, Predicate<Record> visitor) {
        if (batch.isControlBatch()) {
            return true;
        }
        try (RecordIterator records = batch.records()) {
            Record record = null;
            while (records.hasNext()) {
                record = records.nextInto(record);
                if (!visitor.test(record)) {
                    return false;
                }
            }
        }
        return true;
    }
}
