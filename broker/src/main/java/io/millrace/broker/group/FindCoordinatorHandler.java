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
 * loaded it, then COORDINATOR_NOT_AVAILABLE, which clients retry. A transactional id is refused with
 * a message saying there are no transactions, in the one error each client gives up on at once (see
 * {@link #transactionRefusal}); any other key type gets INVALID_REQUEST.
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
            find(body.key(), body.keyType(), request.version()).thenAccept(c -> request.respond(
                FindCoordinatorResponse.single(0, c.errorCode(), c.errorMessage(), c.nodeId(), c.host(), c.port())));
            return;
        }
        List<CompletableFuture<FindCoordinatorResponse.Coordinator>> answers = new ArrayList<>();
        for (String key : body.coordinatorKeys()) {
            answers.add(find(key, body.keyType(), request.version()));
        }
        CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenRun(() ->
            request.respond(FindCoordinatorResponse.batched(0, answers.stream().map(CompletableFuture::join).toList())));
    }

    static final String NO_TRANSACTIONS = "Millrace has no transaction coordinator: transactions are not supported "
        + "(a producer without transactional.id is still idempotent)";

    /**
     * The error a transactional id's lookup gets, so that a transactional producer stops at once with the
     * reason instead of retrying until its timeout. Kafka's Java producer, which looks coordinators up in
     * batches (version 4 on), takes any error but a retriable one as fatal and reports a coordinator's own
     * message, so it gets INVALID_REQUEST. librdkafka (version 2) retries every error but an authorization
     * failure until {@code init_transactions} times out, saying only that it timed out; so the earlier
     * versions get TRANSACTIONAL_ID_AUTHORIZATION_FAILED, which every client takes as fatal, as
     * InitProducerId and Produce already answer a transactional id. Both carry {@link #NO_TRANSACTIONS}.
     */
    static Errors transactionRefusal(short version) {
        return version >= FindCoordinatorRequest.FIRST_BATCHED_VERSION
            ? Errors.INVALID_REQUEST : Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED;
    }

    private CompletableFuture<FindCoordinatorResponse.Coordinator> find(String key, byte keyType, short version) {
        if (keyType == FindCoordinatorRequest.TRANSACTION) {
            return CompletableFuture.completedFuture(failed(key, transactionRefusal(version), NO_TRANSACTIONS));
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
