package io.millrace.common.errors;

/**
 * Bytes that do not form a valid record batch v2: a wrong magic, an impossible length or count,
 * an unknown compression codec, a record that overruns its batch. Reading untrusted bytes throws
 * only this family (this class and {@link CorruptRecordException}), never an index or buffer
 * exception; the broker answers it with INVALID_RECORD or CORRUPT_MESSAGE and keeps serving.
 */
public class InvalidRecordException extends MillraceException {

    private static final long serialVersionUID = 1L;

    public InvalidRecordException(String message) {
        super(message);
    }

    public InvalidRecordException(String message, Throwable cause) {
        super(message, cause);
    }
}
