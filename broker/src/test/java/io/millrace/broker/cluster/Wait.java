package io.millrace.broker.cluster;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/** Waiting on conditions with a deadline, never for a fixed time. */
final class Wait {

    static final Duration TIMEOUT = Duration.ofSeconds(15);

    private Wait() {
    }

    /** Polls {@code condition} until it holds; fails naming {@code what} after {@link #TIMEOUT}. */
    static void until(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Timed out after " + TIMEOUT.toSeconds() + " s waiting until " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    /** Waits for the first snapshot of {@code cache} for which {@code condition} holds. */
    static ClusterSnapshot until(String what, MetadataCache cache, Predicate<ClusterSnapshot> condition) {
        try {
            return get(cache.whenTrue(condition));
        } catch (ExecutionException e) {
            throw new AssertionError("Failed waiting until " + what, e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("Timed out after " + TIMEOUT.toSeconds() + " s waiting until " + what + "; last view "
                + cache.snapshot());
        }
    }

    static <T> T get(CompletableFuture<T> future) throws ExecutionException, TimeoutException {
        try {
            return future.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted", e);
        }
    }

    /** The exception {@code future} failed with; fails if it succeeds or does not finish in time. */
    static Throwable failure(CompletableFuture<?> future) throws TimeoutException {
        try {
            get(future);
        } catch (ExecutionException e) {
            return e.getCause();
        }
        throw new AssertionError("Expected the future to fail, but it succeeded");
    }
}
