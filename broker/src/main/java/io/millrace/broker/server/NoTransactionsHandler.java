package io.millrace.broker.server;

import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.ListTransactionsRequest;
import io.millrace.common.protocol.message.ListTransactionsResponse;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * ListTransactions on a broker that coordinates no transaction: Millrace has none, so a well-formed
 * request lists none ({@code kafka-transactions list} prints only its header), with the state
 * filters Kafka does not know named back, and a transactional id pattern that is not a regular
 * expression refused with INVALID_REGULAR_EXPRESSION, as Kafka's coordinator answers.
 */
final class NoTransactionsHandler implements ApiHandler {

    /** The states Kafka's transaction coordinator knows, by the names ListTransactions filters on. */
    static final Set<String> KAFKA_STATES = Set.of("Empty", "Ongoing", "PrepareCommit", "PrepareAbort", "CompleteCommit",
        "CompleteAbort", "Dead", "PrepareEpochFence");

    @Override
    public void handle(Request request) {
        ListTransactionsRequest body = request.body();
        String pattern = body.transactionalIdPattern();
        if (pattern != null && !pattern.isEmpty() && !compiles(pattern)) {
            request.respond(new ListTransactionsResponse(0, Errors.INVALID_REGULAR_EXPRESSION.code(), List.of(), List.of()));
            return;
        }
        List<String> unknown = body.stateFilters().stream().filter(state -> !KAFKA_STATES.contains(state)).toList();
        request.respond(new ListTransactionsResponse(0, Errors.NONE.code(), unknown, List.of()));
    }

    private static boolean compiles(String pattern) {
        try {
            Pattern.compile(pattern);
            return true;
        } catch (PatternSyntaxException e) {
            return false;
        }
    }
}
