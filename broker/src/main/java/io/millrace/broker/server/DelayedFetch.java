package io.millrace.broker.server;

import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.message.FetchRequest;
import io.millrace.common.protocol.message.FetchRequest.FetchPartition;
import io.millrace.common.protocol.message.FetchRequest.FetchTopic;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A fetch waiting for {@code min_bytes}: completed by the first append that brings enough, or by
 * its timeout with whatever there is then. Whoever completes it first answers; the others find it
 * done.
 */
final class DelayedFetch {

    private final Request request;
    private final FetchHandler handler;
    private final FetchRequest body;
    private final AtomicBoolean completed = new AtomicBoolean();
    private volatile Future<?> timeout;

    DelayedFetch(Request request, FetchHandler handler) {
        this.request = request;
        this.handler = handler;
        this.body = request.body();
    }

    List<TopicPartition> partitions() {
        List<TopicPartition> partitions = new ArrayList<>();
        for (FetchTopic topic : body.topics()) {
            for (FetchPartition partition : topic.partitions()) {
                partitions.add(new TopicPartition(topic.topic(), partition.partition()));
            }
        }
        return partitions;
    }

    boolean isCompleted() {
        return completed.get();
    }

    void setTimeout(Future<?> timeout) {
        this.timeout = timeout;
    }

    /** What {@link #tryComplete} found. */
    enum Outcome {
        /** Not enough data yet: keep waiting. */
        WAITING,
        /** This call answered the fetch. */
        ANSWERED,
        /** Someone else answered it before. */
        ALREADY_DONE;

        boolean isDone() {
            return this != WAITING;
        }
    }

    /**
     * Answers if the partitions now hold enough. {@code beforeAnswer} runs only if this call
     * answers, before the response is sent, so that what it records (metrics, the purgatory's
     * bookkeeping) is never behind what the client has seen.
     */
    Outcome tryComplete(Runnable beforeAnswer) {
        if (completed.get()) {
            return Outcome.ALREADY_DONE;
        }
        FetchHandler.FetchResult result = handler.read(body);
        if (!result.isEnough(body.minBytes())) {
            return Outcome.WAITING;
        }
        return complete(result, beforeAnswer) ? Outcome.ANSWERED : Outcome.ALREADY_DONE;
    }

    /** Answers with what there is now: the wait is over. Returns whether this call answered. */
    boolean expire(Runnable beforeAnswer) {
        return !completed.get() && complete(handler.read(body), beforeAnswer);
    }

    /** Whether the client is still there to answer. */
    boolean isConnectionOpen() {
        return request.context().isConnectionOpen();
    }

    /** Drops the fetch without an answer (its connection is gone); true if this call dropped it. */
    boolean cancel() {
        if (!completed.compareAndSet(false, true)) {
            return false;
        }
        Future<?> pending = timeout;
        if (pending != null) {
            pending.cancel(false);
        }
        request.noResponse();
        return true;
    }

    private boolean complete(FetchHandler.FetchResult result, Runnable beforeAnswer) {
        if (!completed.compareAndSet(false, true)) {
            return false;
        }
        Future<?> pending = timeout;
        if (pending != null) {
            pending.cancel(false);
        }
        beforeAnswer.run();
        handler.respond(request, result);
        return true;
    }
}
