package io.millrace.broker.log;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where an I/O error on a log directory is reported. The first error takes the whole directory
 * offline: it is logged once at ERROR with its cause, listeners (the {@link LogManager}) are told,
 * and every later read or append of a partition in that directory fails fast with
 * {@link io.millrace.common.errors.KafkaStorageException}. The process keeps serving the
 * partitions of its other directories; it never halts over a disk.
 *
 * <p>Thread-safe. Directories are compared by absolute, normalized path.
 */
public final class LogDirFailureChannel {

    private static final Logger LOG = LoggerFactory.getLogger(LogDirFailureChannel.class);

    private final Set<Path> offline = ConcurrentHashMap.newKeySet();
    private final CopyOnWriteArrayList<Consumer<Path>> listeners = new CopyOnWriteArrayList<>();

    /** Takes {@code logDir} offline; only the first report for a directory is logged and announced. */
    public void markOffline(Path logDir, String message, IOException cause) {
        Path dir = normalize(logDir);
        if (offline.add(dir)) {
            LOG.error("Log directory {} is now offline: {}. Its partitions will fail reads and appends until the "
                + "disk is replaced and the broker restarted.", dir, message, cause);
            listeners.forEach(listener -> listener.accept(dir));
        }
    }

    public boolean isOffline(Path logDir) {
        return offline.contains(normalize(logDir));
    }

    public Set<Path> offlineDirs() {
        return Set.copyOf(offline);
    }

    /** Called once per directory that goes offline, on the thread that saw the error. */
    public void addListener(Consumer<Path> listener) {
        listeners.add(listener);
    }

    static Path normalize(Path dir) {
        return dir.toAbsolutePath().normalize();
    }
}
