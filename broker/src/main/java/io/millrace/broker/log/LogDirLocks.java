package io.millrace.broker.log;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code .lock} file of every log directory a {@link LogManager} uses, locked for as long as it
 * runs: a second broker (or a second LogManager in this JVM) pointed at the same directory refuses to
 * start instead of writing into the same segments. Not thread-safe: the LogManager's lifecycle
 * methods, which are synchronized, call it.
 */
final class LogDirLocks {

    private static final Logger LOG = LoggerFactory.getLogger(LogDirLocks.class);

    private final Map<Path, FileLock> locks = new HashMap<>();

    /** Locks {@code dir}; throws IllegalStateException when another process or LogManager holds it. */
    void lock(Path dir) throws IOException {
        FileChannel channel = FileChannel.open(dir.resolve(LogFileNames.LOCK_FILE), StandardOpenOption.CREATE,
            StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            // Another LogManager of this JVM holds it.
            lock = null;
        }
        if (lock == null) {
            channel.close();
            throw new IllegalStateException("Log directory " + dir + " is in use by another process");
        }
        locks.put(dir, lock);
    }

    void releaseAll() {
        for (FileLock lock : locks.values()) {
            try {
                lock.release();
                lock.channel().close();
            } catch (IOException e) {
                LOG.warn("Could not release {}", lock, e);
            }
        }
        locks.clear();
    }
}
