package io.millrace.common.errors;

/**
 * A batch from a producer id whose epoch is older than the last one the partition has seen from
 * it: a producer that another instance (or its own epoch bump) has fenced. The broker answers
 * INVALID_PRODUCER_EPOCH and appends nothing.
 */
public class InvalidProducerEpochException extends MillraceException {

    private static final long serialVersionUID = 1L;

    public InvalidProducerEpochException(String message) {
        super(message);
    }
}
