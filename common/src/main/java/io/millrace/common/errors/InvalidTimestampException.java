package io.millrace.common.errors;

/**
 * A batch whose CreateTime lies too far in the future or the past for the topic
 * ({@code message.timestamp.after.max.ms}, {@code message.timestamp.before.max.ms}); the broker
 * answers it with INVALID_TIMESTAMP and appends nothing of it.
 */
public class InvalidTimestampException extends InvalidRecordException {

    private static final long serialVersionUID = 1L;

    public InvalidTimestampException(String message) {
        super(message);
    }
}
