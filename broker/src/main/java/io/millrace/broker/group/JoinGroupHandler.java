package io.millrace.broker.group;

import io.millrace.broker.server.ApiHandler;
import io.millrace.broker.server.Request;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.JoinGroupRequest;
import io.millrace.common.protocol.message.JoinGroupResponse;
import java.util.List;
import java.util.Optional;

/** Joins a member to its group; the answer usually comes later, when the rebalance completes. */
public final class JoinGroupHandler implements ApiHandler {

    private final GroupCoordinator coordinator;

    public JoinGroupHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public void handle(Request request) {
        JoinGroupRequest body = request.body();
        if (!GroupIds.isValid(body.groupId())) {
            request.respond(error(Errors.INVALID_GROUP_ID, body.memberId()));
            return;
        }
        Optional<ClassicGroup> group = coordinator.group(body.groupId());
        if (group.isEmpty()) {
            request.respond(error(Errors.NOT_COORDINATOR, body.memberId()));
            return;
        }
        String clientId = request.header().clientId() == null ? "" : request.header().clientId();
        group.get().join(body, clientId, request.version(), coordinator.nowMs(), new WaitingAnswer<>(request));
    }

    private static JoinGroupResponse error(Errors error, String memberId) {
        return new JoinGroupResponse(0, error.code(), -1, null, "", "", false, memberId, List.of());
    }
}
