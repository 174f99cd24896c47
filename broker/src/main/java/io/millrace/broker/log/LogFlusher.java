package io.millrace.broker.log;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread that fsyncs logs, so that no append ever waits for the disk (group commit). An
 * append that crosses its log's flush policy only {@link #requestFlush requests} a flush; this
 * thread then fsyncs everything the log has so far and completes, in one go, every
 * {@link Log#awaitFlushed} future the fsync covers. While one fsync runs, new appends queue one
 * more request per log, which the next fsync serves together: the busier the log, the more
 * appends share each fsync.
 *
 * <p>Thread-safe. The thread starts on the first request and is a daemon; {@link #close()} lets
 * queued flushes finish. It never interrupts a flush in progress: interrupting a thread inside
 * {@code FileChannel.force} closes the channel, which would look like a disk failure.
 */
public final class LogFlusher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LogFlusher.class);
    private static final long CLOSE_TIMEOUT_MS = 60_000;

    // Logs with a flush queued but not started; a request for one of them is already served.
    private final Set<Log> queued = ConcurrentHashMap.newKeySet();
    private final ExecutorService executor;
    private volatile LongConsumer flushTimeListener = nanos -> { };

    public LogFlusher(String threadName) {
        this.executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), runnable -> {
            Thread thread = new Thread(runnable, threadName);
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Asks for {@code log} to be fsynced soon; cheap, never blocks, idempotent while queued. */
    public void requestFlush(Log log) {
        if (!queued.add(log)) {
            return;
        }
        try {
            executor.execute(() -> flush(log));
        } catch (RejectedExecutionException e) {
            queued.remove(log);
        }
    }

    private void flush(Log log) {
        // Leave the queued set first: an append during this fsync must queue the next one.
        queued.remove(log);
        try {
            log.flushIfOpen();
        } catch (RuntimeException e) {
            // The log has already reported an I/O error to its directory's failure channel.
            LOG.warn("Flush of {} failed: {}", log.topicPartition(), e.toString());
        }
    }

    /**
     * Sets who hears the duration, in nanoseconds, of every fsync of a log that shares this
     * flusher, on whichever thread ran it (this one, or one that called {@link Log#flush}).
     */
    public void onFlush(LongConsumer listener) {
        this.flushTimeListener = listener;
    }

    void flushed(long nanos) {
        flushTimeListener.accept(nanos);
    }

    /** Runs the flushes already queued, then stops the thread. */
    @Override
    public void close() {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                LOG.warn("Log flusher did not finish its queued flushes within {} ms", CLOSE_TIMEOUT_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
