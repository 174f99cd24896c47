package io.millrace.broker.log;

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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One cleaning pass over a {@link Log} whose {@code cleanup.policy} holds compact: Kafka's log
 * compaction. Every record whose key has a later record is removed, and so is a key's last record
 * when it is a tombstone (a null value) in a segment whose largest timestamp is older than
 * {@code delete.retention.ms}; records without a key stay. Kept records keep their offsets, so a
 * compacted log has gaps: consumers read each batch's offsets, not a count.
 *
 * <p>Only closed segments below the high watermark, whose largest timestamp is at least
 * {@code min.compaction.lag.ms} old, are cleaned, so no record a consumer or follower may still
 * lose to a truncation is touched, and the active segment never is. A pass maps each key to its
 * last offset over as many of those segments as the {@link KeyOffsetMap} holds, then rewrites
 * each mapped segment that holds a removable record into a {@code .cleaned} copy, indexed as it is
 * written, which takes the original's place under the log's locks ({@link LogSegment#takePlaceOf}).
 * Segments are cleaned one by one and never merged.
 *
 * <p>Within a batch the surviving records keep their offset deltas, and the batch keeps its
 * header's offset range, producer id, epoch and base sequence (so an idempotent producer's
 * sequence check still finds its last batch). A batch left with no record is dropped, unless it
 * is its segment's last (so the segment still ends where the next begins and a fetch never falls
 * into a gap between segments) or its producer's last in the segment: those stay as empty
 * batches, as Kafka keeps them. Reading and writing run without the log's locks; only the swap
 * takes them, and is skipped if retention or a truncation removed the segment meanwhile.
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
            long highWatermark = log.highWatermark();
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
        KeyOffsetMap keys = new KeyOffsetMap(end - first, memoryBytes);
        int mapped = map(segments, keys);
        if (mapped == 0) {
            LOG.warn("Cannot clean {}: the keys of its segment {} alone do not fit log.cleaner.dedupe.buffer.size {}",
                log.topicPartition(), segments.get(0).baseOffset(), memoryBytes);
            return new Outcome(0, 0, 0, 0, 0, -1);
        }
        long deleteHorizon = now - log.config().deleteRetentionMs();
        int rewritten = 0;
        long before = 0;
        long after = 0;
        long removed = 0;
        for (LogSegment segment : segments.subList(0, mapped)) {
            boolean tombstonesGo = segment.largestTimestamp() < deleteHorizon;
            Survey survey = survey(segment, keys, tombstonesGo);
            if (survey.removable == 0) {
                continue;
            }
            LogSegment cleaned = rewrite(segment, keys, tombstonesGo, survey.headersKept);
            if (cleaned != null) {
                rewritten++;
                before += segment.size();
                after += cleaned.size();
                removed += survey.removable;
            }
        }
        Outcome outcome = new Outcome(mapped, rewritten, before, after, removed, nextBase(segments, mapped - 1));
        if (rewritten > 0) {
            LOG.info("Cleaned {}: {} of {} segments rewritten below offset {}, {} records removed, {} bytes to {}",
                log.topicPartition(), rewritten, mapped, outcome.cleanedUpTo(), removed, before, after);
        }
        return outcome;
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
            LogSegment segment = segments.get(i);
            for (int position = 0; position < segment.size(); ) {
                RecordBatch batch = batchAt(segment, position);
                position += batch.sizeInBytes();
                if (batch.isControlBatch()) {
                    continue;
                }
                try (RecordIterator records = batch.records()) {
                    Record record = null;
                    while (records.hasNext()) {
                        record = records.nextInto(record);
                        if (record.hasKey() && !keys.put(record.key(), record.offset())) {
                            return i;
                        }
                    }
                }
            }
        }
        return segments.size();
    }

    /** How many records of a segment go, and which batches stay as headers if all of theirs go. */
    private record Survey(long removable, Set<Long> headersKept) {
    }

    private Survey survey(LogSegment segment, KeyOffsetMap keys, boolean tombstonesGo) throws IOException {
        long removable = 0;
        Map<Long, Long> lastBatchOfProducer = new HashMap<>();
        long lastBatch = -1;
        for (int position = 0; position < segment.size(); ) {
            RecordBatch batch = batchAt(segment, position);
            position += batch.sizeInBytes();
            lastBatch = batch.baseOffset();
            if (batch.hasProducerId()) {
                lastBatchOfProducer.put(batch.producerId(), batch.baseOffset());
            }
            if (batch.isControlBatch()) {
                continue;
            }
            try (RecordIterator records = batch.records()) {
                Record record = null;
                while (records.hasNext()) {
                    record = records.nextInto(record);
                    if (!keeps(record, keys, tombstonesGo)) {
                        removable++;
                    }
                }
            }
        }
        Set<Long> headersKept = new HashSet<>(lastBatchOfProducer.values());
        headersKept.add(lastBatch);
        return new Survey(removable, headersKept);
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

    /** Writes the cleaned copy and swaps it in; null if the segment went meanwhile (the copy is discarded). */
    private LogSegment rewrite(LogSegment segment, KeyOffsetMap keys, boolean tombstonesGo, Set<Long> headersKept)
        throws IOException {
        LogSegment cleaned = LogSegment.createCleaned(log.dir(), segment.baseOffset(), log.config(), log.context());
        try {
            for (int position = 0; position < segment.size(); ) {
                RecordBatch batch = batchAt(segment, position);
                position += batch.sizeInBytes();
                ByteBuffer kept = batch.isControlBatch() ? batch.slice()
                    : cleanBatch(batch, keys, tombstonesGo, headersKept.contains(batch.baseOffset()));
                if (kept != null) {
                    cleaned.append(kept);
                }
            }
            cleaned.onBecomeInactive();
            cleaned.flush();
        } catch (IOException | RuntimeException e) {
            cleaned.deleteFiles();
            throw e;
        }
        if (!swap(segment, cleaned)) {
            cleaned.deleteFiles();
            return null;
        }
        return cleaned;
    }

    /** The batch with only its kept records, the batch itself if all stay, or null if it goes. */
    private static ByteBuffer cleanBatch(RecordBatch batch, KeyOffsetMap keys, boolean tombstonesGo, boolean keepHeader) {
        List<Record> kept = new ArrayList<>();
        int count = 0;
        try (RecordIterator records = batch.records()) {
            while (records.hasNext()) {
                Record record = records.next();
                count++;
                if (keeps(record, keys, tombstonesGo)) {
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
        return builder.buildKeeping(batch.lastOffsetDelta());
    }

    /** Puts the cleaned copy in the original's place if the original is still the log's. */
    private boolean swap(LogSegment original, LogSegment cleaned) throws IOException {
        synchronized (log.flushLock()) {
            ReentrantLock lock = log.appendLock();
            lock.lock();
            try {
                log.ensureUsable();
                if (log.segmentMap().get(original.baseOffset()) != original || original.isDeleted()) {
                    return false;
                }
                try {
                    cleaned.takePlaceOf(original, log.dir());
                } catch (IOException e) {
                    throw log.offline("clean", e);
                }
                log.segmentMap().put(cleaned.baseOffset(), cleaned);
            } finally {
                lock.unlock();
            }
        }
        // Reads already in the original finish on its open files; they close after the usual delay.
        log.context().schedule(original::closeQuietly, log.config().fileDeleteDelayMs());
        return true;
    }

    private RecordBatch batchAt(LogSegment segment, int position) throws IOException {
        scratch = segment.readBatchAt(position, scratch);
        return RecordBatch.wrap(scratch, 0);
    }
}
