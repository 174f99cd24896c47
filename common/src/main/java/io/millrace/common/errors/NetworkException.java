package io.millrace.common.errors;

/**
 * A connection to a broker could not be made, or broke while a request was in flight. Retriable:
 * the request may or may not have reached the broker, which is why a retried produce can write a
 * batch twice.
 */
public class NetworkException extends RetriableException {

    public NetworkException(String message) {
        super(message);
    }

    public NetworkException(String message, Throwable cause) {
        super(message, cause);
    }
}
