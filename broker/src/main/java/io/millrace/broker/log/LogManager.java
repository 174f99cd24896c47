package io.millrace.broker.log;

import io.millrace.common.TopicPartition;
import io.millrace.common.errors.KafkaStorageException;
import io.millrace.common.utils.Time;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every partition log of a broker, spread over the directories of {@code log.dirs}. At
 * {@link #startup()} it loads each directory's partitions (recovering them unless the directory
 * holds a clean-shutdown marker) and starts the background work: retention every
 * {@code log.retention.check.interval.ms}, the {@code flush.ms} check every
 * {@code log.flush.scheduler.interval.ms}, and the recovery-point checkpoint every
 * {@code log.flush.offset.checkpoint.interval.ms}, with the log start offsets and high watermarks. {@link #shutdown()}
 * flushes and closes every log, writes the checkpoints and then the clean-shutdown markers.
 * {@link #deleteRecords} writes the log start offsets at once, so that a deletion that was
 * answered survives a crash.
 *
 * <p>A directory that fails an I/O operation goes offline ({@link LogDirFailureChannel}): its
 * partitions throw {@link KafkaStorageException}, it gets no new partitions and no clean-shutdown
 * marker, and the other directories keep serving.
 *
 * <p>Thread-safe. Each directory is locked with a {@code .lock} file so that two brokers cannot
 * share it.
 */
public final class LogManager implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(LogManager.class);

    private final LogConfig defaultConfig;
    private final List<Path> logDirs;
    private final LogDirFailureChannel failureChannel = new LogDirFailureChannel();
    private final LogFlusher flusher = new LogFlusher("millrace-log-flusher");
    private final ScheduledThreadPoolExecutor scheduler;
    private final LogContext context;
    private final ConcurrentHashMap<TopicPartition, Log> logs = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Map<String, Object>> topicOverrides = new ConcurrentHashMap<>();
    private final LogDirLocks dirLocks = new LogDirLocks();
    private final Object createLock = new Object();
    private final LogListeners listeners = new LogListeners();
    private final LogCheckpoints checkpoints;
    private volatile boolean started;
    private volatile boolean shutDown;
    private final LogCleaner cleaner;

    /** A manager of the directories in {@code log.dirs}. */
    public LogManager(LogConfig config, Time time) {
        this(config, config.logDirs(), time);
    }

    public LogManager(LogConfig config, List<Path> logDirs, Time time) {
        this(config, logDirs, time, LogFileOpener.DEFAULT);
    }

    /** As above with the files opened by {@code opener}: tests pass one that fails on demand. */
    public LogManager(LogConfig config, List<Path> logDirs, Time time, LogFileOpener opener) {
        if (logDirs.isEmpty()) {
            throw new IllegalArgumentException("At least one log directory is needed");
        }
        this.defaultConfig = config;
        this.logDirs = logDirs.stream().map(LogDirFailureChannel::normalize).distinct().toList();
        this.scheduler = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "millrace-log-scheduler");
            thread.setDaemon(true);
            return thread;
        });
        // Pending delayed deletes are dropped at shutdown; startup removes their .deleted files.
        scheduler.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        this.context = new LogContext(time, opener, failureChannel, flusher, scheduler);
        this.cleaner = new LogCleaner(this::usableLogs, config, time);
        this.checkpoints = new LogCheckpoints(logs.values(), cleaner);
        failureChannel.addListener(this::handleDirOffline);
    }

    // ---- lifecycle --------------------------------------------------------------------------

    /** Loads every directory's partitions, then starts retention, flush checks and checkpoints. */
    public synchronized void startup() {
        if (started) {
            throw new IllegalStateException("LogManager already started");
        }
        started = true;
        for (Path dir : logDirs) {
            loadDir(dir);
        }
        if (liveLogDirs().isEmpty()) {
            throw new KafkaStorageException("None of the log directories " + logDirs + " is usable");
        }
        schedule("retention", defaultConfig.retentionCheckIntervalMs(), this::cleanupLogs);
        schedule("flush check", defaultConfig.flushSchedulerIntervalMs(), this::flushDirtyLogs);
        schedule("recovery point checkpoint", defaultConfig.flushCheckpointIntervalMs(), this::checkpointRecoveryPoints);
        if (defaultConfig.cleanerEnabled()) {
            cleaner.start();
        }
    }

    private void schedule(String name, long intervalMs, Runnable task) {
        scheduler.scheduleWithFixedDelay(() -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                // An escaping exception would cancel the schedule for good.
                LOG.error("Scheduled log task '{}' failed", name, e);
            }
        }, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
    }

    private void loadDir(Path dir) {
        try {
            Files.createDirectories(dir);
            dirLocks.lock(dir);
            Path marker = dir.resolve(LogFileNames.CLEAN_SHUTDOWN_MARKER);
            boolean clean = Files.exists(marker);
            Map<TopicPartition, Long> recoveryPoints = checkpoints.readRecoveryPoints(dir);
            Map<TopicPartition, Long> startOffsets = checkpoints.readStartOffsets(dir);
            Map<TopicPartition, Long> highWatermarks = checkpoints.readHighWatermarks(dir);
            Map<TopicPartition, Long> cleanerOffsets = checkpoints.readCleanerOffsets(dir);
            LOG.info("Loading log directory {} after {} shutdown", dir, clean ? "a clean" : "an unclean");
            for (Path partitionDir : PartitionDirectories.live(dir)) {
                Log log = loadLog(partitionDir, recoveryPoints, startOffsets, highWatermarks, clean);
                if (log != null && cleanerOffsets.containsKey(log.topicPartition())) {
                    cleaner.restoreCleanedUpTo(log, cleanerOffsets.get(log.topicPartition()));
                }
            }
            if (clean) {
                // From here on a crash must be seen as unclean; make the marker's removal durable.
                Files.delete(marker);
                IoUtils.fsyncDirectory(dir);
            }
        } catch (IOException e) {
            failureChannel.markOffline(dir, "Failed to load log directory " + dir, e);
        } catch (KafkaStorageException e) {
            LOG.error("Log directory {} failed while loading: {}", dir, e.getMessage());
        }
    }

    /** Opens one partition's log; null if the directory's name is not a partition's. */
    private Log loadLog(Path partitionDir, Map<TopicPartition, Long> recoveryPoints, Map<TopicPartition, Long> startOffsets,
                        Map<TopicPartition, Long> highWatermarks, boolean clean) {
        TopicPartition tp;
        try {
            tp = LogFileNames.parsePartitionDirName(partitionDir.getFileName().toString());
        } catch (IllegalArgumentException e) {
            LOG.warn("Skipping {}: {}", partitionDir, e.getMessage());
            return null;
        }
        Log log = Log.open(partitionDir, configFor(tp.topic()), context, recoveryPoints.getOrDefault(tp, 0L), clean,
            startOffsets.getOrDefault(tp, 0L));
        log.restoreHighWatermark(highWatermarks.getOrDefault(tp, log.logEndOffset()));
        Log previous;
        synchronized (createLock) {
            previous = logs.putIfAbsent(tp, log);
            if (previous == null) {
                listeners.opened(log);
            }
        }
        if (previous != null) {
            log.close(false);
            throw new IllegalStateException("Partition " + tp + " has a log in both " + previous.dir() + " and "
                + partitionDir);
        }
        return log;
    }

    /**
     * Flushes and closes every log, writes each healthy directory's recovery-point checkpoint and
     * then its clean-shutdown marker, so that the next startup skips recovery there. Idempotent.
     */
    public synchronized void shutdown() {
        if (shutDown) {
            return;
        }
        shutDown = true;
        LOG.info("Shutting down the log manager");
        stopCleaner();
        scheduler.shutdown();
        awaitQuietly();
        for (Log log : logs.values()) {
            log.close();
        }
        flusher.close();
        for (Path dir : liveLogDirs()) {
            writeCheckpointAndMarker(dir);
        }
        dirLocks.releaseAll();
    }

    /**
     * Stops as a crash would, for tests that simulate one in a single JVM: the background work
     * stops and the directory locks are released, but no log is flushed or closed and no
     * checkpoint or clean-shutdown marker is written, so the next startup recovers every
     * directory. (Flushes already queued still run, as fsyncs issued before a crash would have.)
     */
    public synchronized void halt() {
        if (shutDown) {
            return;
        }
        shutDown = true;
        LOG.warn("Halting the log manager without a clean shutdown");
        stopCleaner();
        scheduler.shutdownNow();
        awaitQuietly();
        flusher.close();
        dirLocks.releaseAll();
    }

    @Override
    public void close() {
        shutdown();
    }

    private void stopCleaner() {
        cleaner.close();
    }

    private void awaitQuietly() {
        try {
            scheduler.awaitTermination(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void writeCheckpointAndMarker(Path dir) {
        try {
            checkpoints.writeAll(dir);
            Path marker = dir.resolve(LogFileNames.CLEAN_SHUTDOWN_MARKER);
            Files.deleteIfExists(marker);
            Files.createFile(marker);
            IoUtils.fsyncDirectory(dir);
        } catch (IOException e) {
            failureChannel.markOffline(dir, "Failed to write the shutdown checkpoint of " + dir, e);
        }
    }

    // ---- partitions -------------------------------------------------------------------------

    /**
     * The log of a partition, created empty in the online directory with the fewest partitions
     * if it does not exist yet.
     *
     * @throws KafkaStorageException no directory is online, or creating the log failed
     */
    public Log getOrCreateLog(String topic, int partition) {
        TopicPartition tp = new TopicPartition(topic, partition);
        Log existing = logs.get(tp);
        if (existing != null) {
            return existing;
        }
        synchronized (createLock) {
            ensureRunning();
            existing = logs.get(tp);
            return existing != null ? existing : createLog(tp);
        }
    }

    private Log createLog(TopicPartition tp) {
        LogFileNames.validateTopic(tp.topic());
        if (tp.partition() < 0) {
            throw new IllegalArgumentException("Negative partition " + tp.partition());
        }
        Path dir = leastLoadedLiveDir();
        Path partitionDir = dir.resolve(LogFileNames.partitionDirName(tp));
        try {
            Files.createDirectories(partitionDir);
            IoUtils.fsyncDirectory(dir);
        } catch (IOException e) {
            failureChannel.markOffline(dir, "Failed to create " + partitionDir, e);
            throw new KafkaStorageException("Could not create the log of " + tp + " in " + dir, e);
        }
        Log log = Log.open(partitionDir, configFor(tp.topic()), context, 0L, true);
        logs.put(tp, log);
        listeners.opened(log);
        LOG.info("Created the log of {} in {}", tp, dir);
        return log;
    }

    private Path leastLoadedLiveDir() {
        Map<Path, Long> counts = new HashMap<>();
        for (Log log : logs.values()) {
            counts.merge(log.logDir(), 1L, Long::sum);
        }
        return liveLogDirs().stream()
            .min(Comparator.comparingLong(dir -> counts.getOrDefault(dir, 0L)))
            .orElseThrow(() -> new KafkaStorageException("No log directory is online: all of " + logDirs + " failed"));
    }

    public Optional<Log> getLog(String topic, int partition) {
        return Optional.ofNullable(logs.get(new TopicPartition(topic, partition)));
    }

    public Collection<Log> allLogs() {
        return List.copyOf(logs.values());
    }

    /**
     * Removes a partition: closes its log, renames its directory to
     * {@code <topic>-<partition>.<uuid>-delete} (so that a crash cannot bring it back) and removes
     * it in the background. Returns whether there was such a log.
     */
    public boolean deleteLog(String topic, int partition) {
        Log log;
        synchronized (createLock) {
            log = logs.remove(new TopicPartition(topic, partition));
            if (log != null) {
                listeners.deleted(log);
            }
        }
        if (log == null) {
            return false;
        }
        log.close(false);
        Path renamed = log.dir().resolveSibling(LogFileNames.deletedPartitionDirName(log.topicPartition()));
        try {
            Files.move(log.dir(), renamed, StandardCopyOption.ATOMIC_MOVE);
            IoUtils.fsyncDirectory(log.logDir());
        } catch (IOException e) {
            failureChannel.markOffline(log.logDir(), "Failed to delete " + log.dir(), e);
            throw new KafkaStorageException("Could not delete the log of " + log.topicPartition(), e);
        }
        scheduler.execute(() -> PartitionDirectories.remove(renamed));
        LOG.info("Deleted the log of {}", log.topicPartition());
        return true;
    }

    /**
     * Sets a topic's overrides (topic names such as {@code retention.ms}), replacing earlier ones,
     * for its existing logs and those created later.
     */
    public void setTopicConfig(String topic, Map<String, ?> overrides) {
        LogConfig config = defaultConfig.withOverrides(overrides);
        topicOverrides.put(topic, Map.copyOf(overrides));
        for (Log log : logs.values()) {
            if (log.topicPartition().topic().equals(topic)) {
                log.updateConfig(config);
            }
        }
    }

    LogConfig configFor(String topic) {
        Map<String, Object> overrides = topicOverrides.get(topic);
        return overrides == null ? defaultConfig : defaultConfig.withOverrides(overrides);
    }

    // ---- observers --------------------------------------------------------------------------

    /** Told when a partition's log is opened (loaded at startup or created) and when it is deleted. */
    public interface LogListener {

        void logOpened(Log log);

        void logDeleted(Log log);
    }

    /**
     * Adds a listener, at once told of every log already open. Calls happen under the lock that
     * orders creations and deletions, so a listener sees them in order; it must be quick.
     */
    public void addLogListener(LogListener listener) {
        synchronized (createLock) {
            listeners.add(listener, logs.values());
        }
    }

    /** Sets who hears the duration, in nanoseconds, of every fsync of these logs. */
    public void onFlush(LongConsumer listener) {
        flusher.onFlush(listener);
    }

    // ---- background work --------------------------------------------------------------------

    /** One retention pass over every healthy log; returns the number of segments deleted. */
    public int cleanupLogs() {
        int deleted = 0;
        for (Log log : usableLogs()) {
            try {
                deleted += log.deleteOldSegments();
            } catch (KafkaStorageException e) {
                LOG.warn("Retention skipped {}: {}", log.topicPartition(), e.getMessage());
            }
        }
        return deleted;
    }

    /** One pass of the log cleaner over the compacted logs that are due, whether or not its thread runs; returns how many it cleaned. */
    public int cleanCompactedLogs() {
        return cleaner.cleanDueLogs();
    }

    /** The log cleaner, for its counters; its thread runs from startup when log.cleaner.enable. */
    public LogCleaner cleaner() {
        return cleaner;
    }

    /** Asks for a flush of every log whose last flush is older than its {@code flush.ms}. */
    public void flushDirtyLogs() {
        for (Log log : usableLogs()) {
            long sinceFlush = context.time().milliseconds() - log.lastFlushTimeMs();
            if (log.unflushedMessages() > 0 && sinceFlush >= log.config().flushMs()) {
                flusher.requestFlush(log);
            }
        }
    }

    /** Writes every healthy directory's checkpoints: recovery points, log start offsets, high watermarks, cleaner offsets. */
    public void checkpointRecoveryPoints() {
        for (Path dir : liveLogDirs()) {
            try {
                checkpoints.writeAll(dir);
            } catch (IOException e) {
                failureChannel.markOffline(dir, "Failed to write the offset checkpoints of " + dir, e);
            }
        }
    }

    /**
     * Deletes the records of {@code log} below {@code offset} ({@link Log#deleteRecordsBefore}) and,
     * if its start moved, writes its directory's log-start-offset checkpoint before returning, so
     * that the deletion survives a restart. Blocks for that file's fsyncs.
     *
     * @return the log start offset afterwards
     * @throws io.millrace.common.errors.OffsetOutOfRangeException {@code offset} is negative or beyond the end
     * @throws KafkaStorageException the log is offline, or the checkpoint could not be written
     */
    public long deleteRecords(Log log, long offset) {
        long before = log.logStartOffset();
        long after = log.deleteRecordsBefore(offset);
        if (after != before) {
            try {
                checkpoints.writeStartOffsets(log.logDir());
            } catch (IOException e) {
                failureChannel.markOffline(log.logDir(), "Failed to write " + LogFileNames.LOG_START_OFFSET_CHECKPOINT, e);
                throw new KafkaStorageException("Could not checkpoint the log start offset of " + log.topicPartition(), e);
            }
        }
        return after;
    }

    private List<Log> usableLogs() {
        return logs.values().stream().filter(log -> !failureChannel.isOffline(log.logDir())).toList();
    }

    // ---- failures ---------------------------------------------------------------------------

    /** Every directory of {@code log.dirs}, absolute and normalized, failed ones included. */
    public List<Path> logDirs() {
        return logDirs;
    }

    /** The directories that have not failed. */
    public List<Path> liveLogDirs() {
        return logDirs.stream().filter(dir -> !failureChannel.isOffline(dir)).toList();
    }

    public LogDirFailureChannel failureChannel() {
        return failureChannel;
    }

    private void handleDirOffline(Path dir) {
        List<TopicPartition> affected = new ArrayList<>();
        for (Log log : logs.values()) {
            if (log.logDir().equals(dir)) {
                log.handleDirOffline();
                affected.add(log.topicPartition());
            }
        }
        LOG.error("Partitions {} are offline with their log directory {}", affected, dir);
    }

    private void ensureRunning() {
        if (!started || shutDown) {
            throw new IllegalStateException("LogManager is not running");
        }
    }
}
