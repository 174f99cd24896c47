package io.millrace.broker.log;

import io.millrace.common.errors.KafkaStorageException;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a {@link Log} can still be used: closed, or its directory offline after an I/O error
 * ({@link LogDirFailureChannel}); and closing it. Every method may be called from any thread;
 * closing serializes on the log's flush lock and then its append lock.
 */
final class LogHealth {

    private static final Logger LOG = LoggerFactory.getLogger(LogHealth.class);

    private final Log log;
    private volatile boolean closed;

    LogHealth(Log log) {
        this.log = log;
    }

    private boolean isDirOffline() {
        return log.context().failureChannel().isOffline(log.logDir());
    }

    boolean closedOrOffline() {
        return closed || isDirOffline();
    }

    void ensureUsable() {
        if (closed) {
            throw new KafkaStorageException("The log of " + log.topicPartition() + " is closed");
        }
        if (isDirOffline()) {
            throw new KafkaStorageException("The log directory " + log.logDir() + " of " + log.topicPartition() + " is offline");
        }
    }

    /**
     * Reports the error, which takes the directory offline, and gives the exception to throw. An
     * error on a log that was closed meanwhile (deleted, or the broker stopping) is the close pulling
     * a channel from under a reader, not a failing disk: it fails this partition's request only.
     */
    KafkaStorageException offline(String action, IOException cause) {
        if (closed) {
            return new KafkaStorageException("The log of " + log.topicPartition() + " was closed while trying to " + action
                + " it", cause);
        }
        return markOffline(action, cause);
    }

    private KafkaStorageException markOffline(String action, IOException cause) {
        String message = "I/O error while trying to " + action + " " + log.topicPartition() + " in " + log.logDir();
        log.context().failureChannel().markOffline(log.logDir(), message, cause);
        KafkaStorageException exception = new KafkaStorageException(message, cause);
        log.durabilityState().failWaiters(exception);
        return exception;
    }

    /** Called when another log's error took this log's directory offline. */
    void handleDirOffline() {
        log.durabilityState().failWaiters(new KafkaStorageException("The log directory " + log.logDir() + " of "
            + log.topicPartition() + " is offline"));
    }

    /** Closes, flushing first if asked and the directory is healthy. Idempotent. */
    void close(boolean flushFirst, boolean ownsFlusher) {
        if (closed) {
            return;
        }
        if (flushFirst && !isDirOffline()) {
            try {
                log.flush();
            } catch (KafkaStorageException e) {
                LOG.warn("Closing {} without a final flush: {}", log.topicPartition(), e.getMessage());
            }
        }
        synchronized (log.flushLock()) {
            log.appendLock().lock();
            try {
                if (!closed) {
                    closed = true;
                    snapshotProducers(flushFirst);
                    closeSegments();
                }
            } finally {
                log.appendLock().unlock();
            }
        }
        log.durabilityState().failWaiters(new KafkaStorageException("The log of " + log.topicPartition() + " is closed"));
        if (ownsFlusher) {
            log.context().flusher().close();
        }
    }

    /** A clean close leaves the producers' state at the log end, so the next load replays nothing. */
    private void snapshotProducers(boolean cleanClose) {
        if (!cleanClose || isDirOffline()) {
            return;
        }
        try {
            log.producerState().takeSnapshot(log.end().offset());
        } catch (IOException e) {
            markOffline("snapshot the producers of", e);
        }
    }

    private void closeSegments() {
        for (LogSegment segment : log.segmentMap().values()) {
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
}
