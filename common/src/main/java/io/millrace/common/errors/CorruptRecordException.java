package io.millrace.common.errors;

/**
 * A batch whose bytes were damaged after it was written: a CRC-32C mismatch, a torn or truncated
 * batch, a compressed stream that ends early or inflates past what the batch claims. Recovery
 * truncates the log at the first such batch; a client that receives one may retry.
 */
public class CorruptRecordException extends InvalidRecordException {

    private static final long serialVersionUID = 1L;

    public CorruptRecordException(String message) {
        super(message);
    }

    public CorruptRecordException(String message, Throwable cause) {
        super(message, cause);
    }
}
