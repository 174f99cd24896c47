package io.millrace.broker.group;

import io.millrace.broker.cluster.BrokerInfo;
import io.millrace.broker.server.ApiHandler;
import io.millrace.broker.server.Request;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.FindCoordinatorRequest;
import io.millrace.common.protocol.message.FindCoordinatorResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Names the coordinator of each group key, in the request's form (one key up to version 3, a batch
 * from 4). Any broker answers for any group. A transactional id gets COORDINATOR_NOT_AVAILABLE:
 * there are no transactions.
 */
public final class FindCoordinatorHandler implements ApiHandler {

    private final GroupCoordinator coordinator;

    public FindCoordinatorHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public void handle(Request request) {
        FindCoordinatorRequest body = request.body();
        if (request.version() < FindCoordinatorRequest.FIRST_BATCHED_VERSION) {
            FindCoordinatorResponse.Coordinator c = find(body.key(), body.keyType());
            request.respond(FindCoordinatorResponse.single(0, c.errorCode(), c.errorMessage(), c.nodeId(), c.host(), c.port()));
            return;
        }
        List<FindCoordinatorResponse.Coordinator> answers = new ArrayList<>();
        for (String key : body.coordinatorKeys()) {
            answers.add(find(key, body.keyType()));
        }
        request.respond(FindCoordinatorResponse.batched(0, answers));
    }

    private FindCoordinatorResponse.Coordinator find(String key, byte keyType) {
        if (keyType != FindCoordinatorRequest.GROUP) {
            return failed(key, Errors.COORDINATOR_NOT_AVAILABLE, "only group coordinators exist");
        }
        if (!GroupIds.isValid(key)) {
            return failed(key, Errors.INVALID_GROUP_ID, "invalid group id");
        }
        Optional<BrokerInfo> broker = coordinator.coordinatorOf(key);
        if (broker.isEmpty()) {
            return failed(key, Errors.COORDINATOR_NOT_AVAILABLE, "no live broker");
        }
        BrokerInfo b = broker.get();
        return new FindCoordinatorResponse.Coordinator(key, b.id(), b.host(), b.port(), Errors.NONE.code(), null);
    }

    private static FindCoordinatorResponse.Coordinator failed(String key, Errors error, String message) {
        return new FindCoordinatorResponse.Coordinator(key, -1, "", -1, error.code(), message);
    }
}
