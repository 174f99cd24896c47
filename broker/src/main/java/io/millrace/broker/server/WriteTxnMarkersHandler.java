package io.millrace.broker.server;

import io.millrace.broker.cluster.ClusterSnapshot;
import io.millrace.broker.cluster.MetadataCache;
import io.millrace.broker.log.Log;
import io.millrace.broker.replica.LeaderSide;
import io.millrace.broker.replica.Partition;
import io.millrace.broker.replica.ReplicaManager;
import io.millrace.broker.txn.TransactionMarkerListener;
import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.WriteTxnMarkersRequest;
import io.millrace.common.protocol.message.WriteTxnMarkersResponse;
import io.millrace.common.record.EndTransactionMarker;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * WriteTxnMarkers (api key 27, version 1): a transaction coordinator has this broker, as leader,
 * append commit or abort markers to partitions. Each partition is answered once every in-sync
 * replica has its marker; a fenced producer epoch (INVALID_PRODUCER_EPOCH) or coordinator epoch
 * (TRANSACTION_COORDINATOR_FENCED) and a partition led elsewhere get their error, the rest of the
 * request going on. Sent between brokers only.
 */
final class WriteTxnMarkersHandler implements ApiHandler {

    private final MetadataCache metadata;
    private final LocalPartitions partitions;
    private final ReplicaManager replicas;
    private final Consumer<TopicPartition> onAppend;
    private final TransactionMarkerListener listener;
    private final long timeoutMs;

    WriteTxnMarkersHandler(MetadataCache metadata, LocalPartitions partitions, ReplicaManager replicas,
                           Consumer<TopicPartition> onAppend, TransactionMarkerListener listener, long timeoutMs) {
        this.metadata = metadata;
        this.partitions = partitions;
        this.replicas = replicas;
        this.onAppend = onAppend;
        this.listener = listener;
        this.timeoutMs = timeoutMs;
    }

    @Override
    public void handle(Request request) {
        WriteTxnMarkersRequest body = request.body();
        ClusterSnapshot snapshot = metadata.snapshot();
        List<CompletableFuture<WriteTxnMarkersResponse.MarkerResult>> markers = new ArrayList<>();
        for (WriteTxnMarkersRequest.Marker marker : body.markers()) {
            markers.add(write(snapshot, marker));
        }
        CompletableFuture.allOf(markers.toArray(CompletableFuture[]::new)).thenRun(() ->
            request.respond(new WriteTxnMarkersResponse(markers.stream().map(CompletableFuture::join).toList())));
    }

    private CompletableFuture<WriteTxnMarkersResponse.MarkerResult> write(ClusterSnapshot snapshot,
                                                                          WriteTxnMarkersRequest.Marker marker) {
        EndTransactionMarker end = new EndTransactionMarker(marker.committed(), marker.coordinatorEpoch());
        List<CompletableFuture<WriteTxnMarkersResponse.TopicResult>> topics = new ArrayList<>();
        for (WriteTxnMarkersRequest.Topic topic : marker.topics()) {
            List<CompletableFuture<WriteTxnMarkersResponse.PartitionResult>> results = new ArrayList<>();
            for (int partition : topic.partitionIndexes()) {
                results.add(append(snapshot, new TopicPartition(topic.name(), partition), marker, end));
            }
            topics.add(CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).thenApply(v ->
                new WriteTxnMarkersResponse.TopicResult(topic.name(), results.stream().map(CompletableFuture::join).toList())));
        }
        return CompletableFuture.allOf(topics.toArray(CompletableFuture[]::new)).thenApply(v ->
            new WriteTxnMarkersResponse.MarkerResult(marker.producerId(), topics.stream().map(CompletableFuture::join).toList()));
    }

    private CompletableFuture<WriteTxnMarkersResponse.PartitionResult> append(ClusterSnapshot snapshot, TopicPartition tp,
                                                                              WriteTxnMarkersRequest.Marker marker,
                                                                              EndTransactionMarker end) {
        CompletableFuture<Void> durable;
        try {
            Log log = partitions.leaderLog(snapshot, tp.topic(), tp.partition());
            Optional<Partition> replica = replicas.partition(snapshot, tp);
            if (replica.isPresent()) {
                LeaderSide.Append appended = replicas.leaderSide().appendMarker(replica.get(), log, marker.producerId(),
                    marker.producerEpoch(), end, timeoutMs);
                durable = appended.replicated() == null ? CompletableFuture.completedFuture(null) : appended.replicated();
            } else {
                log.appendMarker(marker.producerId(), marker.producerEpoch(), end, -1);
                durable = CompletableFuture.completedFuture(null);
            }
            onAppend.accept(tp);
            listener.onMarker(tp, marker.producerId(), marker.committed());
        } catch (RuntimeException e) {
            durable = CompletableFuture.failedFuture(e);
        }
        return durable.handle((ok, failure) -> new WriteTxnMarkersResponse.PartitionResult(tp.partition(),
            failure == null ? Errors.NONE.code() : ServerErrors.forException(failure).code()));
    }
}
