package io.millrace.common.errors;

/** Root of every exception Millrace throws on purpose. Unchecked, as in Kafka's client API. */
public class MillraceException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public MillraceException(String message) {
        super(message);
    }

    public MillraceException(String message, Throwable cause) {
        super(message, cause);
    }
}
