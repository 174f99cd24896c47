package io.millrace.common.errors;

/**
 * An operation did not finish in the time it was given: no response within
 * {@code request.timeout.ms}, no metadata for a topic within {@code max.block.ms}, no room in the
 * producer's buffer. Retriable.
 */
public class TimeoutException extends RetriableException {

    public TimeoutException(String message) {
        super(message);
    }

    public TimeoutException(String message, Throwable cause) {
        super(message, cause);
    }
}
