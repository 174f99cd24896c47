package io.millrace.broker.server;

import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.InitProducerIdRequest;
import io.millrace.common.protocol.message.InitProducerIdResponse;

/**
 * A fresh producer id with epoch 0 for an idempotent producer (Kafka's Java producer asks before its
 * first Produce), answered when the {@link ProducerIdManager} has one, perhaps after the request
 * thread has moved on; its errors are COORDINATOR_LOAD_IN_PROGRESS (retriable) and
 * UNKNOWN_SERVER_ERROR, with producer id and epoch -1. TRANSACTIONAL_ID_AUTHORIZATION_FAILED for a
 * transactional id: there are no transactions.
 */
final class InitProducerIdHandler implements ApiHandler {

    private final ProducerIdManager producerIds;

    InitProducerIdHandler(ProducerIdManager producerIds) {
        this.producerIds = producerIds;
    }

    @Override
    public void handle(Request request) {
        InitProducerIdRequest body = request.body();
        if (body.transactionalId() != null) {
            request.respond(new InitProducerIdResponse(0, Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code(), -1L, (short) -1));
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
