package io.millrace.consumer.internals;

import io.millrace.common.errors.MillraceException;
import io.millrace.common.errors.NetworkException;
import io.millrace.common.errors.TimeoutException;
import io.millrace.common.protocol.Errors;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * What the consumers do about a failed request to a partition's leader. Errors that mean "the
 * leader moved or is not there yet" (and lost connections or timeouts) are worth a metadata refresh
 * and a retry; everything else is the caller's to report.
 */
public final class LeaderRetry {

    private LeaderRetry() {
    }

    /** Whether a partition-level error asks for fresh metadata and another try. */
    public static boolean isLeaderError(Errors error) {
        // NOT_LEADER_OR_FOLLOWER, LEADER_NOT_AVAILABLE, UNKNOWN_TOPIC_OR_PARTITION (a topic being created),
        // KAFKA_STORAGE_ERROR, ...: all retriable on the wire
        return error != Errors.NONE && error.isRetriable();
    }

    /** Whether a failed send (an exception from the request future) may succeed on another try. */
    public static boolean isRetriable(Throwable failure) {
        Throwable cause = unwrap(failure);
        return cause instanceof NetworkException || cause instanceof TimeoutException
            || cause instanceof java.util.concurrent.TimeoutException;
    }

    public static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof ExecutionException || cause instanceof CompletionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** The failure as an unchecked exception to rethrow. */
    public static RuntimeException propagate(Throwable failure) {
        Throwable cause = unwrap(failure);
        if (cause instanceof RuntimeException runtime) {
            return runtime;
        }
        return new MillraceException(cause.getMessage(), cause);
    }
}
