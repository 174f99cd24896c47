package io.millrace.common.errors;

/** A failure that may pass if the same operation is tried again, perhaps after fresh metadata. */
public class RetriableException extends MillraceException {

    public RetriableException(String message) {
        super(message);
    }

    public RetriableException(String message, Throwable cause) {
        super(message, cause);
    }
}
