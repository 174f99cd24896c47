package io.millrace.broker.network;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;
import org.junit.rules.ExternalResource;

/** Records what one class logs at WARN and above during a test. */
final class LogCapture extends ExternalResource {

    private final Logger logger;
    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private final AppenderSkeleton appender = new AppenderSkeleton() {
        @Override
        protected void append(LoggingEvent event) {
            if (event.getLevel().isGreaterOrEqual(Level.WARN)) {
                warnings.add(event.getLevel() + " " + event.getRenderedMessage());
            }
        }

        @Override
        public void close() {
        }

        @Override
        public boolean requiresLayout() {
            return false;
        }
    };

    LogCapture(Class<?> source) {
        this.logger = Logger.getLogger(source);
    }

    @Override
    protected void before() {
        logger.addAppender(appender);
    }

    @Override
    protected void after() {
        logger.removeAppender(appender);
    }

    List<String> warnings() {
        return List.copyOf(warnings);
    }
}
