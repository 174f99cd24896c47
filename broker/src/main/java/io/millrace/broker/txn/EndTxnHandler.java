package io.millrace.broker.txn;

import io.millrace.broker.server.ApiHandler;
import io.millrace.broker.server.Request;
import io.millrace.common.protocol.message.EndTxnRequest;
import io.millrace.common.protocol.message.EndTxnResponse;

/**
 * EndTxn (api key 26, versions 0-4): commits or aborts the producer's transaction, answered once
 * the decision is durable. Before version 2, PRODUCER_FENCED reads INVALID_PRODUCER_EPOCH.
 */
public final class EndTxnHandler implements ApiHandler {

    private static final short FIRST_PRODUCER_FENCED_VERSION = 2;

    private final TransactionCoordinator coordinator;

    public EndTxnHandler(TransactionCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public void handle(Request request) {
        EndTxnRequest body = request.body();
        boolean fencedKnown = request.version() >= FIRST_PRODUCER_FENCED_VERSION;
        coordinator.endTransaction(body.transactionalId(), body.producerId(), body.producerEpoch(), body.committed())
            .thenAccept(error -> request.respond(new EndTxnResponse(0,
                TransactionCoordinator.forVersion(error, fencedKnown).code())));
    }
}
