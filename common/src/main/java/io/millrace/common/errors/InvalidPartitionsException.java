package io.millrace.common.errors;

/** A partition count that cannot be used, such as zero or a negative number. Kafka's INVALID_PARTITIONS. */
public class InvalidPartitionsException extends MillraceException {

    private static final long serialVersionUID = 1L;

    public InvalidPartitionsException(String message) {
        super(message);
    }
}
