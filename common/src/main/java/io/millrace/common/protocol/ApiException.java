package io.millrace.common.protocol;

import io.millrace.common.errors.MillraceException;

/**
 * An error a broker reported by code, for the codes that have no more specific Millrace exception.
 * The client turns codes into exceptions only through {@link Errors#exception(String)}, which
 * creates this class or one of the specific ones.
 */
public class ApiException extends MillraceException {

    private static final long serialVersionUID = 1L;

    private final Errors error;

    public ApiException(Errors error, String message) {
        super(message);
        this.error = error;
    }

    /** The wire error this exception stands for. */
    public Errors error() {
        return error;
    }

    /** Whether sending the same request again may succeed (a leader moved, a timeout). */
    public boolean isRetriable() {
        return error.isRetriable();
    }
}
