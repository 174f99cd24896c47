package io.millrace.broker.txn;

import io.millrace.broker.cluster.MetadataCache;
import io.millrace.broker.server.ApiHandler;
import io.millrace.broker.server.Request;
import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.AddPartitionsToTxnRequest;
import io.millrace.common.protocol.message.AddPartitionsToTxnResponse;
import io.millrace.common.protocol.message.AddPartitionsToTxnResponse.PartitionResult;
import io.millrace.common.protocol.message.AddPartitionsToTxnResponse.TopicResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * AddPartitionsToTxn (api key 24, versions 0-3): the partitions a transactional producer is about
 * to write to join its transaction. A partition that does not exist is answered
 * UNKNOWN_TOPIC_OR_PARTITION and the others OPERATION_NOT_ATTEMPTED, as on Kafka; otherwise each
 * partition gets the coordinator's answer. Before version 2, PRODUCER_FENCED reads INVALID_PRODUCER_EPOCH.
 */
public final class AddPartitionsToTxnHandler implements ApiHandler {

    private static final short FIRST_PRODUCER_FENCED_VERSION = 2;

    private final TransactionCoordinator coordinator;
    private final MetadataCache metadata;

    public AddPartitionsToTxnHandler(TransactionCoordinator coordinator, MetadataCache metadata) {
        this.coordinator = coordinator;
        this.metadata = metadata;
    }

    @Override
    public void handle(Request request) {
        AddPartitionsToTxnRequest body = request.body();
        Set<TopicPartition> partitions = new HashSet<>();
        Set<TopicPartition> unknown = new HashSet<>();
        for (AddPartitionsToTxnRequest.Topic topic : body.topics()) {
            int count = metadata.partitionCount(topic.name());
            for (int partition : topic.partitions()) {
                TopicPartition tp = new TopicPartition(topic.name(), partition);
                (partition >= 0 && partition < count ? partitions : unknown).add(tp);
            }
        }
        if (!unknown.isEmpty()) {
            request.respond(answer(body, tp -> unknown.contains(tp) ? Errors.UNKNOWN_TOPIC_OR_PARTITION
                : Errors.OPERATION_NOT_ATTEMPTED));
            return;
        }
        boolean fencedKnown = request.version() >= FIRST_PRODUCER_FENCED_VERSION;
        coordinator.addPartitions(body.transactionalId(), body.producerId(), body.producerEpoch(), partitions)
            .thenAccept(error -> request.respond(answer(body, tp -> TransactionCoordinator.forVersion(error, fencedKnown))));
    }

    private static AddPartitionsToTxnResponse answer(AddPartitionsToTxnRequest body,
                                                     java.util.function.Function<TopicPartition, Errors> errorOf) {
        List<TopicResult> results = new ArrayList<>(body.topics().size());
        for (AddPartitionsToTxnRequest.Topic topic : body.topics()) {
            List<PartitionResult> partitions = new ArrayList<>(topic.partitions().size());
            for (int partition : topic.partitions()) {
                partitions.add(new PartitionResult(partition,
                    errorOf.apply(new TopicPartition(topic.name(), partition)).code()));
            }
            results.add(new TopicResult(topic.name(), partitions));
        }
        return new AddPartitionsToTxnResponse(0, results);
    }
}
