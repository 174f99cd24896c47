package io.millrace.broker.replica;

import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * acks=all produces waiting for the high watermark to pass their batches (Kafka's delayed produce):
 * one future per partition of a request, completed when the partition's HW reaches the batch end,
 * failed with NOT_ENOUGH_REPLICAS_AFTER_APPEND, NOT_LEADER_OR_FOLLOWER (leadership moved) or, at the
 * request's timeout, REQUEST_TIMED_OUT. Checked on every HW advance, ISR change and leadership change
 * of the partition; no thread waits. Thread-safe.
 */
final class AcksAllWaiters implements AutoCloseable {

    private record Waiter(Partition partition, int leaderEpoch, long requiredOffset, int minInsyncReplicas,
                          CompletableFuture<Void> done) {
    }

    private final Map<TopicPartition, Queue<Waiter>> waiting = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer;

    AcksAllWaiters(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    /**
     * A future completed once {@code partition}'s HW reaches {@code requiredOffset} (the last offset
     * of the batch plus one) in {@code leaderEpoch}, or failed with the ApiException to answer.
     */
    CompletableFuture<Void> await(Partition partition, int leaderEpoch, long requiredOffset, int minInsyncReplicas,
                                  long timeoutMs) {
        Waiter waiter = new Waiter(partition, leaderEpoch, requiredOffset, minInsyncReplicas, new CompletableFuture<>());
        waiting.computeIfAbsent(partition.topicPartition(), tp -> new ConcurrentLinkedQueue<>()).add(waiter);
        try {
            timer.schedule(() -> fail(waiter, Errors.REQUEST_TIMED_OUT, "The in-sync replicas did not all have the "
                + "batch within the request's timeout of " + timeoutMs + " ms"), timeoutMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            fail(waiter, Errors.NOT_LEADER_OR_FOLLOWER, "The broker is shutting down");
        }
        check(partition.topicPartition()); // the HW may have passed before the waiter was registered
        return waiter.done();
    }

    /** Completes the waiters of {@code tp} whose answer is known now. */
    void check(TopicPartition tp) {
        Queue<Waiter> queue = waiting.get(tp);
        if (queue == null) {
            return;
        }
        queue.removeIf(waiter -> {
            if (waiter.done().isDone()) {
                return true;
            }
            Optional<Errors> status = waiter.partition().ackStatus(waiter.leaderEpoch(), waiter.requiredOffset(),
                waiter.minInsyncReplicas());
            status.ifPresent(error -> answer(waiter, error));
            return status.isPresent();
        });
    }

    private static void answer(Waiter waiter, Errors error) {
        if (error == Errors.NONE) {
            waiter.done().complete(null);
        } else {
            fail(waiter, error, error == Errors.NOT_LEADER_OR_FOLLOWER
                ? "Leadership moved before the in-sync replicas had the batch"
                : "The in-sync replicas shrank below min.insync.replicas after the append");
        }
    }

    private static void fail(Waiter waiter, Errors error, String message) {
        waiter.done().completeExceptionally(new ApiException(error, message));
    }

    /** The number of waiting produces, for tests. */
    int size() {
        return waiting.values().stream().mapToInt(q -> (int) q.stream().filter(w -> !w.done().isDone()).count()).sum();
    }

    /** Fails every waiter: the broker is stopping, and leadership goes with it. */
    @Override
    public void close() {
        for (Queue<Waiter> queue : waiting.values()) {
            queue.forEach(waiter -> fail(waiter, Errors.NOT_LEADER_OR_FOLLOWER, "The broker is shutting down"));
        }
        waiting.clear();
    }
}
