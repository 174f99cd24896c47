package io.millrace.consumer.internals;

import io.millrace.common.client.Cluster;
import io.millrace.common.client.Metadata;
import io.millrace.common.errors.MillraceException;
import io.millrace.common.errors.NetworkException;
import io.millrace.common.errors.TimeoutException;
import io.millrace.common.protocol.Errors;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the consumers do about a failed request to a partition's leader. Errors that mean "the
 * leader moved or is not there yet" (and lost connections or timeouts) are worth a metadata refresh
 * and a retry; everything else is the caller's to report.
 */
public final class LeaderRetry {

    private static final Logger log = LoggerFactory.getLogger(LeaderRetry.class);

    private LeaderRetry() {
    }

    /**
     * Waits {@code backoffMs}, then for metadata newer than {@code seen} (the snapshot the caller
     * found no leader in), never past {@code deadlineMs} on the wall clock: the caller's loop reports
     * the timeout. A refresh that finished after the caller looked counts, so it is not waited out
     * again; one that fails is only logged, as the caller's next attempt asks again.
     */
    public static void awaitNewerMetadata(Metadata metadata, Cluster seen, long backoffMs, long deadlineMs)
            throws InterruptedException {
        Thread.sleep(Math.max(0, Math.min(backoffMs, deadlineMs - System.currentTimeMillis())));
        long remainingMs = deadlineMs - System.currentTimeMillis();
        if (remainingMs <= 0) {
            return;
        }
        try {
            metadata.requestUpdateSince(seen).get(remainingMs, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            log.debug("Metadata refresh failed, the next attempt asks again: {}", e.toString());
        }
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
