package io.millrace.consumer;

import io.millrace.common.errors.MillraceException;

/**
 * A stream's iterator waited {@code consumer.timeout.ms} without a message. The iterator stays
 * usable: calling {@code hasNext()} again waits again.
 */
public class ConsumerTimeoutException extends MillraceException {

    private static final long serialVersionUID = 1L;

    public ConsumerTimeoutException(String message) {
        super(message);
    }
}
