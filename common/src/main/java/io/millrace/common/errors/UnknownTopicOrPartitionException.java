package io.millrace.common.errors;

/** A topic or partition that this cluster does not have. Kafka's UNKNOWN_TOPIC_OR_PARTITION. */
public class UnknownTopicOrPartitionException extends MillraceException {

    private static final long serialVersionUID = 1L;

    public UnknownTopicOrPartitionException(String message) {
        super(message);
    }
}
