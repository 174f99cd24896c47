package io.millrace.broker.log;

import io.millrace.common.record.RecordBatch;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Offsets by timestamp in one {@link Log}: Kafka's ListOffsets by time (the first record at or after
 * a time) and by -3 (the first record with the largest timestamp). Segments are chosen from their
 * in-memory largest timestamps and only those are searched, through their time indexes. A segment
 * retention deletes during a search is skipped, as it would be a moment later; any other I/O error
 * takes the log's directory offline like every other read.
 */
final class TimestampLookup {

    private final Log log;

    TimestampLookup(Log log) {
        this.log = log;
    }

    /**
     * The first offset whose record has a timestamp at or after {@code timestamp}, or the log
     * start / end offset for {@link Log#EARLIEST_TIMESTAMP} / {@link Log#LATEST_TIMESTAMP}; empty if
     * every record is older. Segments whose largest timestamp is older are skipped unread.
     */
    Optional<TimestampAndOffset> firstAtOrAfter(long timestamp) {
        log.health().ensureUsable();
        LogEnd end = log.end();
        if (timestamp == Log.EARLIEST_TIMESTAMP || timestamp == Log.LATEST_TIMESTAMP) {
            long offset = timestamp == Log.EARLIEST_TIMESTAMP ? log.logStartOffset() : end.offset();
            return Optional.of(new TimestampAndOffset(RecordBatch.NO_TIMESTAMP, offset));
        }
        for (LogSegment segment : log.segmentsBelow(end.offset())) {
            if (segment.maxTimestampSoFar() < timestamp) {
                continue;
            }
            try {
                TimestampAndOffset found = segment.findOffsetByTimestamp(timestamp, end.maxPosition(segment));
                if (found != null) {
                    return Optional.of(atOrAfterStart(found));
                }
            } catch (IOException e) {
                if (!segment.isDeleted()) {
                    throw log.health().offline("search by timestamp in", e);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * A match below the log start offset (DeleteRecords moved it inside a segment) becomes the log
     * start offset, with the match's timestamp: exact when timestamps grow with offsets, and never
     * an offset the log no longer serves.
     */
    private TimestampAndOffset atOrAfterStart(TimestampAndOffset found) {
        long start = log.logStartOffset();
        return found.offset() >= start ? found : new TimestampAndOffset(found.timestamp(), start);
    }

    /**
     * The first record carrying the largest timestamp in the log, or empty if the log holds no record
     * with a timestamp. The segment with the largest max timestamp is found from the segments' in-memory
     * maxima (the first one on a tie, so the earliest offset wins), then searched for that timestamp.
     * For a batch with LogAppendTime, whose records all carry the batch's time, that is the batch's
     * base offset.
     */
    Optional<TimestampAndOffset> firstOfMaxTimestamp() {
        while (true) {
            log.health().ensureUsable();
            LogEnd end;
            LogSegment best = null;
            long max = RecordBatch.NO_TIMESTAMP;
            // Under the append lock the segments' maxima cover exactly the published batches: an
            // append raises a segment's maximum before it publishes the new end.
            ReentrantLock lock = log.appendLock();
            lock.lock();
            try {
                log.health().ensureUsable();
                end = log.end();
                for (LogSegment segment : log.segmentsBelow(end.offset())) {
                    if (segment.maxTimestampSoFar() > max) {
                        max = segment.maxTimestampSoFar();
                        best = segment;
                    }
                }
            } finally {
                lock.unlock();
            }
            if (best == null) {
                return Optional.empty();
            }
            try {
                return Optional.ofNullable(best.findOffsetByTimestamp(max, end.maxPosition(best))).map(this::atOrAfterStart);
            } catch (IOException e) {
                if (!best.isDeleted()) {
                    throw log.health().offline("search by timestamp in", e);
                }
                // Retention deleted the segment meanwhile: look again among those left.
            }
        }
    }
}
