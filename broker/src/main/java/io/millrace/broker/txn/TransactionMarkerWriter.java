package io.millrace.broker.txn;

import io.millrace.broker.cluster.BrokerInfo;
import io.millrace.broker.cluster.ClusterSnapshot;
import io.millrace.broker.cluster.MetadataCache;
import io.millrace.common.TopicPartition;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.client.Node;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.WriteTxnMarkersRequest;
import io.millrace.common.protocol.message.WriteTxnMarkersResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Has the leaders of a transaction's partitions append its commit or abort marker, with
 * WriteTxnMarkers requests (this broker's own partitions included, over the same path), until every
 * partition has it. A partition whose leader is moving, or whose answer does not come, is tried
 * again after {@value #RETRY_BACKOFF_MS} ms; a partition of a deleted topic needs no marker. The
 * work stops when the coordinator no longer coordinates the transaction: the next one takes it
 * over from the state it finds durable.
 */
final class TransactionMarkerWriter {

    static final long RETRY_BACKOFF_MS = 100;

    private static final Logger LOG = LoggerFactory.getLogger(TransactionMarkerWriter.class);

    private final MetadataCache metadata;
    private final NetworkClient client;
    private final ScheduledExecutorService timer;

    TransactionMarkerWriter(MetadataCache metadata, NetworkClient client, ScheduledExecutorService timer) {
        this.metadata = metadata;
        this.client = client;
        this.timer = timer;
    }

    /** One transaction's markers still to write. */
    private final class Job {
        final long producerId;
        final short producerEpoch;
        final int coordinatorEpoch;
        final boolean commit;
        final Set<TopicPartition> remaining;
        final BooleanSupplier current;
        final CompletableFuture<Void> done = new CompletableFuture<>();

        Job(long producerId, short producerEpoch, int coordinatorEpoch, boolean commit, Set<TopicPartition> partitions,
            BooleanSupplier current) {
            this.producerId = producerId;
            this.producerEpoch = producerEpoch;
            this.coordinatorEpoch = coordinatorEpoch;
            this.commit = commit;
            this.remaining = new HashSet<>(partitions);
            this.current = current;
        }
    }

    /**
     * Writes the marker to every partition of {@code partitions}; completes once each has it, or
     * fails NOT_COORDINATOR once {@code current} says this coordinator lost the transaction.
     */
    CompletableFuture<Void> write(long producerId, short producerEpoch, int coordinatorEpoch, boolean commit,
                                  Set<TopicPartition> partitions, BooleanSupplier current) {
        Job job = new Job(producerId, producerEpoch, coordinatorEpoch, commit, partitions, current);
        attempt(job);
        return job.done;
    }

    private void attempt(Job job) {
        if (job.done.isDone()) {
            return;
        }
        if (!job.current.getAsBoolean()) {
            job.done.completeExceptionally(new ApiException(Errors.NOT_COORDINATOR,
                "No longer coordinating the transaction of producer " + job.producerId));
            return;
        }
        ClusterSnapshot snapshot = metadata.snapshot();
        Map<BrokerInfo, List<TopicPartition>> byLeader = new HashMap<>();
        synchronized (job) {
            job.remaining.removeIf(tp -> isGone(snapshot, tp));
            for (TopicPartition tp : job.remaining) {
                snapshot.leaderBroker(tp.topic(), tp.partition())
                    .ifPresent(leader -> byLeader.computeIfAbsent(leader, l -> new ArrayList<>()).add(tp));
            }
            if (job.remaining.isEmpty()) {
                job.done.complete(null);
                return;
            }
        }
        List<CompletableFuture<Void>> sends = new ArrayList<>(byLeader.size());
        byLeader.forEach((leader, partitions) -> sends.add(send(job, leader, partitions)));
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).whenComplete((ok, failure) -> {
            boolean finished;
            synchronized (job) {
                finished = job.remaining.isEmpty();
            }
            if (finished) {
                job.done.complete(null);
            } else {
                retryLater(job);
            }
        });
    }

    private void retryLater(Job job) {
        try {
            timer.schedule(() -> attempt(job), RETRY_BACKOFF_MS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopping) {
            job.done.completeExceptionally(new ApiException(Errors.NOT_COORDINATOR, "The coordinator is shutting down"));
        }
    }

    /** A partition of a topic deleted meanwhile needs no marker. */
    private static boolean isGone(ClusterSnapshot snapshot, TopicPartition tp) {
        boolean gone = snapshot.partitionCount(tp.topic()) <= tp.partition();
        if (gone) {
            LOG.info("{} is gone: no transaction marker is written to it", tp);
        }
        return gone;
    }

    private CompletableFuture<Void> send(Job job, BrokerInfo leader, List<TopicPartition> partitions) {
        Map<String, List<Integer>> byTopic = new HashMap<>();
        partitions.forEach(tp -> byTopic.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(tp.partition()));
        List<WriteTxnMarkersRequest.Topic> topics = new ArrayList<>();
        byTopic.forEach((topic, indexes) -> topics.add(new WriteTxnMarkersRequest.Topic(topic, indexes)));
        WriteTxnMarkersRequest request = new WriteTxnMarkersRequest(List.of(new WriteTxnMarkersRequest.Marker(
            job.producerId, job.producerEpoch, job.commit, topics, job.coordinatorEpoch)));
        Node node = new Node(leader.id(), leader.host(), leader.port());
        return client.<WriteTxnMarkersResponse>send(node, request).handle((response, failure) -> {
            if (failure != null) {
                LOG.debug("Writing the markers of producer {} to broker {} failed; retrying: {}", job.producerId,
                    leader.id(), failure.toString());
                return null;
            }
            for (WriteTxnMarkersResponse.MarkerResult marker : response.markers()) {
                for (WriteTxnMarkersResponse.TopicResult topic : marker.topics()) {
                    for (WriteTxnMarkersResponse.PartitionResult partition : topic.partitions()) {
                        answered(job, new TopicPartition(topic.name(), partition.partitionIndex()), partition.error());
                    }
                }
            }
            return null;
        });
    }

    private void answered(Job job, TopicPartition tp, Errors error) {
        switch (error) {
            case NONE -> done(job, tp);
            // The partition has seen a newer epoch of the producer: a later transaction's records are
            // there, written after this one ended everywhere it mattered; the marker has no use.
            case INVALID_PRODUCER_EPOCH -> {
                LOG.warn("{} has a newer epoch of producer {} than {}: no marker written for its transaction", tp,
                    job.producerId, job.producerEpoch);
                done(job, tp);
            }
            case TRANSACTION_COORDINATOR_FENCED -> job.done.completeExceptionally(new ApiException(Errors.NOT_COORDINATOR,
                "A newer coordinator wrote markers of producer " + job.producerId + " to " + tp));
            default -> LOG.debug("The marker of producer {} on {} failed with {}; retrying", job.producerId, tp, error);
        }
    }

    private static void done(Job job, TopicPartition tp) {
        synchronized (job) {
            job.remaining.remove(tp);
        }
    }
}
