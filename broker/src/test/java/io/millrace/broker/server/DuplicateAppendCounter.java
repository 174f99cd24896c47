package io.millrace.broker.server;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.spi.LoggingEvent;

/**
 * Counts the batches a broker answered as duplicates of an idempotent producer's earlier ones and did
 * not append again, from the line the producer state logs for each at DEBUG. Added to that logger by
 * the test, so a test can tell that retries really reached the broker.
 */
final class DuplicateAppendCounter extends AppenderSkeleton {

    private final AtomicInteger count = new AtomicInteger();

    @Override
    protected void append(LoggingEvent event) {
        if (event.getRenderedMessage().contains("not appended")) {
            count.incrementAndGet();
        }
    }

    int count() {
        return count.get();
    }

    @Override
    public void close() {
    }

    @Override
    public boolean requiresLayout() {
        return false;
    }
}
