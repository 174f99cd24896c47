package io.millrace.broker.txn;

import io.millrace.broker.cluster.MetadataCache;
import io.millrace.broker.group.OffsetsTopic;
import io.millrace.broker.server.ApiHandler;
import io.millrace.broker.server.Request;
import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.AddOffsetsToTxnRequest;
import io.millrace.common.protocol.message.AddOffsetsToTxnResponse;
import java.util.Set;

/**
 * AddOffsetsToTxn (api key 25, versions 0-4): a transactional producer about to commit a group's
 * offsets in its transaction adds the group's partition of {@code __consumer_offsets} to it, so
 * that the transaction's marker reaches that partition too. COORDINATOR_NOT_AVAILABLE, which the
 * producer retries, while the offsets topic does not exist yet. Before version 2, PRODUCER_FENCED
 * reads INVALID_PRODUCER_EPOCH.
 */
public final class AddOffsetsToTxnHandler implements ApiHandler {

    private static final short FIRST_PRODUCER_FENCED_VERSION = 2;

    private final TransactionCoordinator coordinator;
    private final MetadataCache metadata;

    public AddOffsetsToTxnHandler(TransactionCoordinator coordinator, MetadataCache metadata) {
        this.coordinator = coordinator;
        this.metadata = metadata;
    }

    @Override
    public void handle(Request request) {
        AddOffsetsToTxnRequest body = request.body();
        int partitions = metadata.partitionCount(OffsetsTopic.NAME);
        if (partitions <= 0) {
            request.respond(new AddOffsetsToTxnResponse(0, Errors.COORDINATOR_NOT_AVAILABLE.code()));
            return;
        }
        TopicPartition offsets = new TopicPartition(OffsetsTopic.NAME, OffsetsTopic.partitionFor(body.groupId(), partitions));
        boolean fencedKnown = request.version() >= FIRST_PRODUCER_FENCED_VERSION;
        coordinator.addPartitions(body.transactionalId(), body.producerId(), body.producerEpoch(), Set.of(offsets))
            .thenAccept(error -> request.respond(new AddOffsetsToTxnResponse(0,
                TransactionCoordinator.forVersion(error, fencedKnown).code())));
    }
}
