package io.millrace.broker.server;

import io.millrace.common.protocol.Errors;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where the request handlers turn a failure into a wire error: through
 * {@link Errors#forException}, plus the JDK's {@link TimeoutException} (a topic admin call the
 * controller did not carry out in time). An error the table does not know is a bug and is logged.
 */
final class ServerErrors {

    private static final Logger LOG = LoggerFactory.getLogger(ServerErrors.class);

    private ServerErrors() {
    }

    static Errors forException(Throwable failure) {
        Throwable cause = unwrap(failure);
        if (cause instanceof TimeoutException) {
            return Errors.REQUEST_TIMED_OUT;
        }
        Errors error = Errors.forException(cause);
        if (error == Errors.UNKNOWN_SERVER_ERROR) {
            LOG.error("Unexpected error while handling a request", cause);
        }
        return error;
    }

    /** The message to send with the error: the exception's own. */
    static String message(Throwable failure) {
        return unwrap(failure).getMessage();
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
