package io.millrace.broker.log;

import io.millrace.common.errors.KafkaStorageException;
import java.io.IOException;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.CompletableFuture;

/**
 * What of one {@link Log} is on disk: its recovery point (the first offset not known to be
 * fsynced), when it was last flushed, whether its directory needs an fsync for segment files
 * created or renamed, and the futures waiting for offsets to become durable. Flushes, retention
 * and close serialize on {@link #lock()}, taken before the log's append lock.
 */
final class LogDurability {

    private final Log log;
    private final FlushWaiters waiters = new FlushWaiters();
    private final Object lock = new Object();
    private volatile long recoveryPoint;
    private volatile long lastFlushMs;
    // A segment file was created or renamed since the directory was last fsynced.
    private volatile boolean dirDirty;

    LogDurability(Log log) {
        this.log = log;
    }

    /** A freshly loaded log: everything up to {@code endOffset} is on disk. */
    void loaded(long endOffset, long nowMs) {
        recoveryPoint = endOffset;
        lastFlushMs = nowMs;
    }

    Object lock() {
        return lock;
    }

    long recoveryPoint() {
        return recoveryPoint;
    }

    long lastFlushMs() {
        return lastFlushMs;
    }

    void markDirDirty() {
        dirDirty = true;
    }

    /**
     * A truncation ended the log at {@code endOffset}: the recovery point cannot stay beyond it, and
     * a wait for a removed offset fails rather than completing once other records reach it.
     */
    void truncated(long endOffset) {
        recoveryPoint = Math.min(recoveryPoint, endOffset);
        dirDirty = true;
        waiters.failFrom(endOffset, new KafkaStorageException("The records of " + log.topicPartition() + " from offset "
            + endOffset + " on were truncated before they were flushed"));
    }

    /** The log was emptied and continues at {@code offset}, below which nothing remains to flush. */
    void restartAt(long offset) {
        recoveryPoint = offset;
        dirDirty = true;
        waiters.failAll(new KafkaStorageException("The log of " + log.topicPartition() + " was emptied to restart at offset "
            + offset + " before these records were flushed"));
    }

    /** {@link Log#flush()}: fsyncs what may be unflushed up to the end seen at the start. */
    void flush() {
        synchronized (lock) {
            log.health().ensureUsable();
            LogEnd target = log.end();
            if (target.offset() > recoveryPoint || dirDirty) {
                fsyncUpTo(target);
            }
        }
        waiters.completeBelow(recoveryPoint);
    }

    private void fsyncUpTo(LogEnd target) {
        NavigableMap<Long, LogSegment> segments = log.segmentMap();
        // From the segment holding the recovery point (a roll after the snapshot may have added a
        // segment there) through the snapshot's active segment.
        long to = target.segment().baseOffset();
        Long from = segments.floorKey(recoveryPoint);
        // The first segment, not the log start offset: DeleteRecords may have moved that inside a segment.
        Map<Long, LogSegment> unflushed = segments.subMap(from == null ? segments.firstKey() : Math.min(from, to), true,
            to, true);
        LogContext context = log.context();
        long started = context.time().nanoseconds();
        try {
            for (LogSegment segment : unflushed.values()) {
                segment.flush();
            }
            if (dirDirty) {
                dirDirty = false;
                IoUtils.fsyncDirectory(log.dir());
            }
        } catch (IOException e) {
            throw log.health().offline("flush", e);
        }
        context.flusher().flushed(context.time().nanoseconds() - started);
        recoveryPoint = Math.max(recoveryPoint, target.offset());
        lastFlushMs = context.time().milliseconds();
    }

    /** {@link Log#awaitFlushed}. */
    CompletableFuture<Void> awaitFlushed(long offset) {
        if (offset < recoveryPoint) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> future = waiters.register(offset);
        // The flusher may have moved the recovery point, or the log closed, since the check above.
        waiters.completeBelow(recoveryPoint);
        if (log.health().closedOrOffline()) {
            waiters.failAll(new KafkaStorageException("The log of " + log.topicPartition() + " is closed or offline"));
        } else {
            log.context().flusher().requestFlush(log);
        }
        return future;
    }

    void failWaiters(KafkaStorageException cause) {
        waiters.failAll(cause);
    }
}
