package io.millrace.broker.server;

import io.millrace.broker.txn.TransactionCoordinator;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.InitProducerIdRequest;
import io.millrace.common.protocol.message.InitProducerIdResponse;

/**
 * A fresh producer id with epoch 0 for an idempotent producer (Kafka's Java producer asks before its
 * first Produce), answered when the {@link ProducerIdManager} has one, perhaps after the request
 * thread has moved on; its errors are COORDINATOR_LOAD_IN_PROGRESS (retriable) and
 * UNKNOWN_SERVER_ERROR, with producer id and epoch -1. A transactional id goes to the
 * {@link TransactionCoordinator}, which keeps the id's producer id and raises its epoch each time;
 * before version 4, PRODUCER_FENCED reads INVALID_PRODUCER_EPOCH.
 */
final class InitProducerIdHandler implements ApiHandler {

    private static final short FIRST_PRODUCER_FENCED_VERSION = 4;

    private final ProducerIdManager producerIds;
    private final TransactionCoordinator transactions;

    InitProducerIdHandler(ProducerIdManager producerIds, TransactionCoordinator transactions) {
        this.producerIds = producerIds;
        this.transactions = transactions;
    }

    @Override
    public void handle(Request request) {
        InitProducerIdRequest body = request.body();
        if (body.transactionalId() != null) {
            boolean fencedKnown = request.version() >= FIRST_PRODUCER_FENCED_VERSION;
            transactions.initProducerId(body.transactionalId(), body.transactionTimeoutMs(), body.producerId(),
                body.producerEpoch()).thenAccept(result -> request.respond(new InitProducerIdResponse(0,
                    TransactionCoordinator.forVersion(result.error(), fencedKnown).code(), result.producerId(),
                    result.producerEpoch())));
            return;
        }
        producerIds.nextId().whenComplete((id, failure) -> {
            if (failure == null) {
                request.respond(new InitProducerIdResponse(0, Errors.NONE.code(), id, (short) 0));
            } else {
                request.respond(new InitProducerIdResponse(0, ServerErrors.forException(failure).code(), -1L, (short) -1));
            }
        });
    }
}
