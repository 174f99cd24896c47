package io.millrace.broker.group;

import io.millrace.broker.server.ApiHandler;
import io.millrace.broker.server.Request;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.HeartbeatRequest;
import io.millrace.common.protocol.message.HeartbeatResponse;

/** Keeps a member's session alive, and tells it to rejoin when a rebalance has begun. */
public final class HeartbeatHandler implements ApiHandler {

    private final GroupCoordinator coordinator;

    public HeartbeatHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public void handle(Request request) {
        HeartbeatRequest body = request.body();
        Errors error = coordinator.existingGroup(body.groupId())
            .map(g -> g.heartbeat(body.memberId(), body.groupInstanceId(), body.generationId(), coordinator.nowMs()))
            .orElse(coordinator.isCoordinatorOf(body.groupId()) ? Errors.UNKNOWN_MEMBER_ID : Errors.NOT_COORDINATOR);
        request.respond(new HeartbeatResponse(0, error.code()));
    }
}
