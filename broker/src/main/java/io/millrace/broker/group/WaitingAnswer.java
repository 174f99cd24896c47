package io.millrace.broker.group;

import io.millrace.broker.server.Request;
import io.millrace.common.protocol.ApiMessage;
import java.util.function.Consumer;

/**
 * The way back to a client whose JoinGroup or SyncGroup answer may come much later. A group drops
 * one whose connection has closed (as the fetch purgatory does), so a waiting request does not hold
 * its in-flight slot until the rebalance timeout; the member itself stays until its session ends.
 */
class WaitingAnswer<T extends ApiMessage> implements Consumer<T> {

    private final Request request;

    WaitingAnswer(Request request) {
        this.request = request;
    }

    @Override
    public void accept(T answer) {
        request.respond(answer);
    }

    /** Whether nobody can read the answer any more. */
    boolean abandoned() {
        return !request.context().isConnectionOpen();
    }

    /** Completes the request without an answer. */
    void drop() {
        request.noResponse();
    }
}
