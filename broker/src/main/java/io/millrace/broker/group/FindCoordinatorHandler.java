package io.millrace.broker.group;

import io.millrace.broker.cluster.BrokerInfo;
import io.millrace.broker.server.ApiHandler;
import io.millrace.broker.server.Request;
import io.millrace.broker.txn.TransactionCoordinator;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.FindCoordinatorRequest;
import io.millrace.common.protocol.message.FindCoordinatorResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Names the coordinator of each group key, in the request's form (one key up to version 3, a batch
 * from 4): the leader of the group's partition of {@code __consumer_offsets}. Any broker answers for
 * any group. The first request creates the topic; the answer waits (off the request thread, up to
 * {@value #WAIT_MS} ms) until the partition has a leader and, if this broker leads it, until it has
 * loaded it, then COORDINATOR_NOT_AVAILABLE, which clients retry. A transactional id (key type 1)
 * is answered with its transaction coordinator ({@link #transactionCoordinator}); any other key type
 * gets INVALID_REQUEST.
 */
public final class FindCoordinatorHandler implements ApiHandler {

    static final long WAIT_MS = 5_000;

    private final GroupCoordinator coordinator;
    private final TransactionCoordinator transactions;

    public FindCoordinatorHandler(GroupCoordinator coordinator, TransactionCoordinator transactions) {
        this.coordinator = coordinator;
        this.transactions = transactions;
    }

    @Override
    public void handle(Request request) {
        FindCoordinatorRequest body = request.body();
        if (request.version() < FindCoordinatorRequest.FIRST_BATCHED_VERSION) {
            find(body.key(), body.keyType()).thenAccept(c -> request.respond(
                FindCoordinatorResponse.single(0, c.errorCode(), c.errorMessage(), c.nodeId(), c.host(), c.port())));
            return;
        }
        List<CompletableFuture<FindCoordinatorResponse.Coordinator>> answers = new ArrayList<>();
        for (String key : body.coordinatorKeys()) {
            answers.add(find(key, body.keyType()));
        }
        CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenRun(() ->
            request.respond(FindCoordinatorResponse.batched(0, answers.stream().map(CompletableFuture::join).toList())));
    }

    private CompletableFuture<FindCoordinatorResponse.Coordinator> find(String key, byte keyType) {
        if (keyType == FindCoordinatorRequest.TRANSACTION) {
            return CompletableFuture.completedFuture(transactionCoordinator(key));
        }
        if (keyType != FindCoordinatorRequest.GROUP) {
            return CompletableFuture.completedFuture(failed(key, Errors.INVALID_REQUEST, "Millrace has group (key type 0) "
                + "and transaction (1) coordinators, not key type " + keyType));
        }
        if (!GroupIds.isValid(key)) {
            return CompletableFuture.completedFuture(failed(key, Errors.INVALID_GROUP_ID, "invalid group id"));
        }
        return coordinator.awaitCoordinator(key, WAIT_MS).thenApply(broker -> {
            if (broker.isEmpty()) {
                return failed(key, Errors.COORDINATOR_NOT_AVAILABLE, "the group's partition of __consumer_offsets has no leader yet");
            }
            BrokerInfo b = broker.get();
            return new FindCoordinatorResponse.Coordinator(key, b.id(), b.host(), b.port(), Errors.NONE.code(), null);
        });
    }

    /**
     * The leader of the transactional id's partition of {@code __transaction_state}, answered at once:
     * COORDINATOR_NOT_AVAILABLE, which producers retry, while the topic is being made or the
     * partition has no leader. A broker still loading the partition answers the producer's next
     * request COORDINATOR_LOAD_IN_PROGRESS.
     */
    private FindCoordinatorResponse.Coordinator transactionCoordinator(String transactionalId) {
        if (transactionalId == null || transactionalId.isEmpty()) {
            return failed(transactionalId, Errors.INVALID_REQUEST, "an empty transactional id");
        }
        return transactions.coordinatorOf(transactionalId)
            .map(b -> new FindCoordinatorResponse.Coordinator(transactionalId, b.id(), b.host(), b.port(), Errors.NONE.code(),
                null))
            .orElseGet(() -> failed(transactionalId, Errors.COORDINATOR_NOT_AVAILABLE,
                "the transactional id's partition of __transaction_state has no leader yet"));
    }

    private static FindCoordinatorResponse.Coordinator failed(String key, Errors error, String message) {
        return new FindCoordinatorResponse.Coordinator(key, -1, "", -1, error.code(), message);
    }
}
