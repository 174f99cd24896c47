package io.millrace.broker.server;

import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.ProduceResponse.PartitionResponse;
import io.millrace.common.protocol.message.ProduceResponse.TopicResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

/**
 * The waits a produce answer needs: per partition, the flush of a topic that fsyncs every message,
 * and for acks=all on a replicated partition the high watermark passing the batch. The answer is
 * sent when all are done, from the thread completing the last; a partition whose flush failed (its
 * directory went offline, its log closed) is answered KAFKA_STORAGE_ERROR instead of its offset, one
 * whose replication wait failed with that wait's error (REQUEST_TIMED_OUT, NOT_ENOUGH_REPLICAS_AFTER_APPEND...).
 */
final class DurableAcks {

    private record Pending(String topic, int indexInTopic, CompletableFuture<Void> flushed) {
    }

    private final List<Pending> pending = new ArrayList<>(1);

    void await(String topic, int indexInTopic, CompletableFuture<Void> flushed) {
        pending.add(new Pending(topic, indexInTopic, flushed));
    }

    boolean isEmpty() {
        return pending.isEmpty();
    }

    /** Calls {@code answer} with the responses, failed flushes marked, once every flush is done. */
    void whenFlushed(List<TopicResponse> responses, Consumer<List<TopicResponse>> answer) {
        CompletableFuture<?>[] all = pending.stream().map(Pending::flushed).toArray(CompletableFuture[]::new);
        CompletableFuture.allOf(all).whenComplete((done, error) -> answer.accept(markFailures(responses)));
    }

    /** An ApiException (the replication wait's answer) gives its error; anything else is a failed fsync. */
    private static PartitionResponse failure(int partition, CompletableFuture<Void> failed) {
        Throwable cause = failed.handle((ok, error) -> error).join();
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof ApiException api) {
            return new PartitionResponse(partition, api.error().code(), -1L, -1L, -1L, List.of(), api.getMessage());
        }
        return new PartitionResponse(partition, Errors.KAFKA_STORAGE_ERROR.code(), -1L, -1L, -1L, List.of(),
            "The append was not made durable: its fsync failed");
    }

    private List<TopicResponse> markFailures(List<TopicResponse> responses) {
        List<TopicResponse> marked = new ArrayList<>(responses.size());
        for (TopicResponse topic : responses) {
            List<PartitionResponse> partitions = new ArrayList<>(topic.partitionResponses());
            for (Pending p : pending) {
                if (p.topic().equals(topic.name()) && p.flushed().isCompletedExceptionally()) {
                    PartitionResponse ok = partitions.get(p.indexInTopic());
                    partitions.set(p.indexInTopic(), failure(ok.index(), p.flushed()));
                }
            }
            marked.add(new TopicResponse(topic.name(), partitions));
        }
        return marked;
    }
}
