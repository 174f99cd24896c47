package io.millrace.common.errors;

/**
 * The partition's log directory is offline after an I/O error: the broker stops reading and
 * writing its partitions there but keeps serving the others. On the wire this is
 * KAFKA_STORAGE_ERROR; a client retries, possibly against another replica.
 */
public class KafkaStorageException extends MillraceException {

    private static final long serialVersionUID = 1L;

    public KafkaStorageException(String message) {
        super(message);
    }

    public KafkaStorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
