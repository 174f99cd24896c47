package io.millrace.broker.log;

import io.millrace.common.errors.OffsetOutOfRangeException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Time- and size-based retention of one {@link Log} whose cleanup.policy holds delete: Kafka's rule,
 * whole closed segments from the oldest on, never the active one; and the deletion of records below a log start offset that
 * DeleteRecords moved forward, which takes the segments wholly below it. Deleted segments are renamed to {@code .deleted} at once and their
 * files removed after {@code file.delete.delay.ms}, so that reads already under way can finish. A retention pass
 * also forgets the idempotent producers idle for {@code producer.id.expiration.ms}.
 */
final class LogRetention {

    private static final Logger LOG = LoggerFactory.getLogger(LogRetention.class);

    private final Log log;

    LogRetention(Log log) {
        this.log = log;
    }

    /** Deletes what retention allows now; returns how many segments went. */
    int deleteOldSegments() {
        synchronized (log.flushLock()) {
            ReentrantLock lock = log.appendLock();
            lock.lock();
            try {
                log.health().ensureUsable();
                LogConfig config = log.config();
                long now = log.context().time().milliseconds();
                List<LogSegment> deletable = deletable(now, config);
                delete(deletable, config);
                log.producerState().removeExpired(now);
                return deletable.size();
            } catch (IOException e) {
                throw log.health().offline("delete old segments of", e);
            } finally {
                lock.unlock();
            }
        }
    }

    /** See {@link Log#deleteRecordsBefore}. */
    long deleteRecordsBefore(long offset) {
        synchronized (log.flushLock()) {
            ReentrantLock lock = log.appendLock();
            lock.lock();
            try {
                log.health().ensureUsable();
                long end = log.end().offset();
                if (offset < 0 || offset > end) {
                    throw new OffsetOutOfRangeException("Cannot delete the records of " + log.topicPartition() + " below offset "
                        + offset + ": the log ends at " + end);
                }
                if (offset > log.logStartOffset()) {
                    LOG.info("Log start offset of {} moves from {} to {}", log.topicPartition(), log.logStartOffset(), offset);
                    log.advanceLogStartOffset(offset);
                    // The segment holding the new start stays, even if that is the active one.
                    delete(List.copyOf(log.segmentsBelow(log.segmentBaseFor(offset))), log.config());
                }
                return log.logStartOffset();
            } catch (IOException e) {
                throw log.health().offline("delete records of", e);
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * The oldest closed segments, in order, up to the first that may stay: wholly below the log
     * start offset (every offset they hold was deleted by DeleteRecords), past
     * {@code retention.ms} by their largest timestamp, or not needed to keep at least
     * {@code retention.bytes} (Kafka's rule). The active segment is never among them.
     */
    private List<LogSegment> deletable(long now, LogConfig config) throws IOException {
        List<LogSegment> deletable = new ArrayList<>();
        long excessBytes = log.size() - config.retentionBytes();
        long startSegment = log.segmentBaseFor(log.logStartOffset());
        // A topic compacted and not deleted keeps each key's last record however old (Kafka's rule).
        boolean retains = config.cleanupPolicy().delete();
        for (LogSegment segment : log.segmentsBelow(log.end().segment().baseOffset())) {
            boolean belowStart = segment.baseOffset() < startSegment;
            boolean expired = retains && config.retentionMs() >= 0 && now - segment.largestTimestamp() > config.retentionMs();
            boolean overSize = retains && config.retentionBytes() >= 0 && excessBytes >= segment.size();
            if (!belowStart && !expired && !overSize) {
                break;
            }
            LOG.info("Deleting segment {} of {}: {}", segment.logFile(), log.topicPartition(), reason(belowStart, expired, config));
            deletable.add(segment);
            excessBytes -= segment.size();
        }
        return deletable;
    }

    private String reason(boolean belowStart, boolean expired, LogConfig config) {
        if (belowStart) {
            return "every offset it holds is below the log start offset " + log.logStartOffset();
        }
        return expired ? "its largest timestamp is older than retention.ms " + config.retentionMs()
            : "the rest of the log still holds retention.bytes " + config.retentionBytes();
    }

    private void delete(List<LogSegment> deletable, LogConfig config) throws IOException {
        if (deletable.isEmpty()) {
            return;
        }
        for (LogSegment segment : deletable) {
            removeOldest(segment);
        }
        log.context().schedule(() -> deleteFiles(deletable), config.fileDeleteDelayMs());
    }

    /** Drops the oldest segment from the log: the log now starts at the next one at the earliest. */
    private void removeOldest(LogSegment segment) throws IOException {
        NavigableMap<Long, LogSegment> segments = log.segmentMap();
        segments.remove(segment.baseOffset());
        log.advanceLogStartOffset(Math.max(log.logStartOffset(), segments.firstKey()));
        log.producerState().deleteSnapshotsBelow(segments.firstKey());
        segment.renameToDeleted();
        log.durabilityState().markDirDirty();
    }

    private void deleteFiles(List<LogSegment> deleted) {
        try {
            for (LogSegment segment : deleted) {
                segment.deleteFiles();
            }
        } catch (IOException e) {
            log.health().offline("remove deleted segments of", e);
        }
    }
}
