package io.millrace.common.errors;

/**
 * A topic name that breaks Kafka's naming rules: empty, longer than 249 characters, "." or "..",
 * or containing a character outside {@code [a-zA-Z0-9._-]}. Kafka's INVALID_TOPIC_EXCEPTION.
 */
public class InvalidTopicException extends MillraceException {

    private static final long serialVersionUID = 1L;

    public InvalidTopicException(String message) {
        super(message);
    }
}
