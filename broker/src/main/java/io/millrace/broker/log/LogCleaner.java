package io.millrace.broker.log;

import io.millrace.common.errors.KafkaStorageException;
import io.millrace.common.utils.Time;
import java.io.Closeable;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's log cleaner: one thread that compacts the partitions whose {@code cleanup.policy}
 * holds compact ({@link LogCompaction}), each when its dirty bytes (closed segments written since
 * its last cleaning) reach {@code min.cleanable.dirty.ratio} of its cleanable bytes, or when a
 * dirty segment is older than {@code max.compaction.lag.ms}. It sleeps {@code log.cleaner.backoff.ms}
 * when nothing is due.
 *
 * <p>Where each log was last cleaned up to is kept in each directory's {@code cleaner-offset-checkpoint}
 * with the other checkpoints ({@link LogCheckpoints}), so a restart does not clean every compacted
 * partition again; a log without an entry counts as dirty, which costs a pass and loses nothing.
 *
 * <p>The thread is never interrupted, since an interrupt would close the log files it reads for
 * every reader; {@link #close} asks it to stop after the log it is cleaning and waits.
 */
public final class LogCleaner implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(LogCleaner.class);

    private final Supplier<Collection<Log>> logs;
    private final long backoffMs;
    private final long memoryBytes;
    private final Time time;
    private final Map<Log, Long> cleanedUpTo = new ConcurrentHashMap<>();
    private final LongAdder logsCleaned = new LongAdder();
    private final LongAdder segmentsRewritten = new LongAdder();
    private final LongAdder recordsRemoved = new LongAdder();
    private final LongAdder bytesRemoved = new LongAdder();
    private final CopyOnWriteArrayList<LongConsumer> passListeners = new CopyOnWriteArrayList<>();
    private final Object sleep = new Object();
    private final Thread thread;
    private volatile boolean running;
    private volatile boolean stopped;

    LogCleaner(Supplier<Collection<Log>> logs, LogConfig brokerConfig, Time time) {
        this.logs = logs;
        this.backoffMs = brokerConfig.cleanerBackoffMs();
        this.memoryBytes = brokerConfig.cleanerDedupeBufferSize();
        this.time = time;
        this.thread = new Thread(this::run, "millrace-log-cleaner");
        thread.setDaemon(true);
    }

    void start() {
        running = true;
        thread.start();
    }

    private void run() {
        while (running) {
            int cleaned = 0;
            try {
                cleaned = cleanDueLogs();
            } catch (RuntimeException e) {
                LOG.error("The log cleaner's pass failed", e);
            }
            if (cleaned == 0) {
                synchronized (sleep) {
                    try {
                        if (running) {
                            sleep.wait(Math.max(1, backoffMs));
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        }
    }

    /** Cleans every compacted log that is due; returns how many were cleaned. One pass at a time. */
    public synchronized int cleanDueLogs() {
        Collection<Log> current = logs.get();
        cleanedUpTo.keySet().retainAll(current);
        int cleaned = 0;
        for (Log log : current) {
            if (stopped) {
                break;
            }
            if (log.health().closedOrOffline() || !log.config().cleanupPolicy().compact()) {
                continue;
            }
            try {
                if (cleanIfDue(log)) {
                    cleaned++;
                }
            } catch (KafkaStorageException e) {
                LOG.warn("The log cleaner skipped {}: {}", log.topicPartition(), e.getMessage());
            } catch (IOException | RuntimeException e) {
                if (log.health().closedOrOffline()) {
                    // Deleted or moved while being cleaned: its files went from under the reads.
                    LOG.info("The log cleaner stopped cleaning {}, which was closed meanwhile", log.topicPartition());
                } else {
                    LOG.error("The log cleaner could not clean {}; it tries again after log.cleaner.backoff.ms",
                        log.topicPartition(), e);
                }
            }
        }
        return cleaned;
    }

    private boolean cleanIfDue(Log log) throws IOException {
        long now = time.milliseconds();
        long startNanos = time.nanoseconds();
        LogCompaction compaction = new LogCompaction(log, memoryBytes);
        List<LogSegment> cleanable = compaction.cleanableSegments(now);
        if (!isDue(log, cleanable, now)) {
            return false;
        }
        LogCompaction.Outcome outcome = compaction.clean(cleanable, now);
        if (outcome.segmentsMapped() == 0) {
            return false;
        }
        cleanedUpTo.put(log, outcome.cleanedUpTo());
        logsCleaned.increment();
        segmentsRewritten.add(outcome.segmentsRewritten());
        recordsRemoved.add(outcome.recordsRemoved());
        bytesRemoved.add(outcome.bytesBefore() - outcome.bytesAfter());
        long tookNanos = time.nanoseconds() - startNanos;
        passListeners.forEach(listener -> listener.accept(tookNanos));
        return true;
    }

    private boolean isDue(Log log, List<LogSegment> cleanable, long now) throws IOException {
        long clean = cleanedUpTo(log);
        long total = 0;
        long dirty = 0;
        long oldestDirty = Long.MAX_VALUE;
        for (LogSegment segment : cleanable) {
            total += segment.size();
            if (segment.baseOffset() >= clean) {
                dirty += segment.size();
                oldestDirty = Math.min(oldestDirty, segment.largestTimestamp());
            }
        }
        if (dirty == 0) {
            return false;
        }
        LogConfig config = log.config();
        return (double) dirty / total >= config.minCleanableRatio() || now - oldestDirty > config.maxCompactionLagMs();
    }

    /** The offset below which {@code log} was last cleaned, or -1 if it has not been. */
    long cleanedUpTo(Log log) {
        return cleanedUpTo.getOrDefault(log, -1L);
    }

    /** At load: where the checkpoint says {@code log} was cleaned up to. */
    void restoreCleanedUpTo(Log log, long offset) {
        cleanedUpTo.put(log, offset);
    }

    /** Partitions cleaned since the broker started (a pass over one partition counts once). */
    public long logsCleaned() {
        return logsCleaned.sum();
    }

    /** Segments written again without their removed records. */
    public long segmentsRewritten() {
        return segmentsRewritten.sum();
    }

    public long recordsRemoved() {
        return recordsRemoved.sum();
    }

    /** Bytes the rewritten segments shrank by. */
    public long bytesRemoved() {
        return bytesRemoved.sum();
    }

    /** Told how long each partition's cleaning took, in ns. */
    public void onCleaned(LongConsumer listener) {
        passListeners.add(listener);
    }

    /** Stops the thread after the log it is cleaning, and waits for it. */
    @Override
    public void close() {
        running = false;
        stopped = true;
        synchronized (sleep) {
            sleep.notifyAll();
        }
        try {
            if (thread.isAlive()) {
                thread.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
