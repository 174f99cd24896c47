package io.millrace.broker.group;

import io.millrace.broker.server.ApiHandler;
import io.millrace.broker.server.Request;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.SyncGroupRequest;
import io.millrace.common.protocol.message.SyncGroupResponse;
import java.nio.ByteBuffer;
import java.util.Optional;

/** Hands each member its assignment, once the group's leader has sent them all. */
public final class SyncGroupHandler implements ApiHandler {

    private final GroupCoordinator coordinator;

    public SyncGroupHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public void handle(Request request) {
        SyncGroupRequest body = request.body();
        Optional<ClassicGroup> group = coordinator.existingGroup(body.groupId());
        if (group.isEmpty()) {
            Errors error = coordinator.isCoordinatorOf(body.groupId()) ? Errors.UNKNOWN_MEMBER_ID : Errors.NOT_COORDINATOR;
            request.respond(new SyncGroupResponse(0, error.code(), null, null, ByteBuffer.allocate(0)));
            return;
        }
        group.get().sync(body, coordinator.nowMs(), new WaitingAnswer<>(request));
    }
}
