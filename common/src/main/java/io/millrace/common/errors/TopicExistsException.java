package io.millrace.common.errors;

/**
 * A request to create a topic that already exists, or whose creation another request has already
 * started. Kafka's TOPIC_ALREADY_EXISTS.
 */
public class TopicExistsException extends MillraceException {

    private static final long serialVersionUID = 1L;

    public TopicExistsException(String message) {
        super(message);
    }
}
