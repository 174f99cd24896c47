package io.millrace.broker.log;

import io.millrace.broker.log.LogManager.LogListener;
import java.util.Collection;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whoever a {@link LogManager} tells of logs opened and deleted. A listener that throws is logged
 * and the others are still told: one observer's bug must not stop a log from being created or removed.
 * The manager calls these under the lock that orders creations and deletions.
 */
final class LogListeners {

    private static final Logger LOG = LoggerFactory.getLogger(LogListeners.class);

    private final CopyOnWriteArrayList<LogListener> listeners = new CopyOnWriteArrayList<>();

    /** Adds a listener and tells it at once of every log already open. */
    void add(LogListener listener, Collection<Log> open) {
        listeners.add(listener);
        for (Log log : open) {
            listener.logOpened(log);
        }
    }

    void opened(Log log) {
        tell(log, "opening", LogListener::logOpened);
    }

    void deleted(Log log) {
        tell(log, "deletion", LogListener::logDeleted);
    }

    private void tell(Log log, String event, BiConsumer<LogListener, Log> call) {
        for (LogListener listener : listeners) {
            try {
                call.accept(listener, log);
            } catch (RuntimeException e) {
                LOG.error("A log listener failed on the {} of {}", event, log.topicPartition(), e);
            }
        }
    }
}
