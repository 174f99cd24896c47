package io.millrace.broker.group;

import io.millrace.broker.cluster.BrokerInfo;
import io.millrace.broker.server.ApiHandler;
import io.millrace.broker.server.Request;
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
 * loaded it, then COORDINATOR_NOT_AVAILABLE, which clients retry. A transactional id gets
 * INVALID_REQUEST saying there are no transactions, and so does any other key type.
 */
public final class FindCoordinatorHandler implements ApiHandler {

    static final long WAIT_MS = 5_000;

    private final GroupCoordinator coordinator;

    public FindCoordinatorHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
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

    static final String NO_TRANSACTIONS = "Millrace has no transaction coordinator: transactions are not supported "
        + "(a producer without transactional.id is still idempotent)";

    private CompletableFuture<FindCoordinatorResponse.Coordinator> find(String key, byte keyType) {
        if (keyType == FindCoordinatorRequest.TRANSACTION) {
            // Not retriable, so that a transactional producer stops at once with the reason instead of retrying until
            // max.block.ms; Kafka's producer reports it as a fatal error of initTransactions().
            return CompletableFuture.completedFuture(failed(key, Errors.INVALID_REQUEST, NO_TRANSACTIONS));
        }
        if (keyType != FindCoordinatorRequest.GROUP) {
            return CompletableFuture.completedFuture(failed(key, Errors.INVALID_REQUEST, "Millrace has group coordinators "
                + "only (key type 0), not key type " + keyType));
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

    private static FindCoordinatorResponse.Coordinator failed(String key, Errors error, String message) {
        return new FindCoordinatorResponse.Coordinator(key, -1, "", -1, error.code(), message);
    }
}
