package io.millrace.broker.group;

import io.millrace.broker.server.ApiHandler;
import io.millrace.broker.server.Request;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.LeaveGroupRequest;
import io.millrace.common.protocol.message.LeaveGroupResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Removes leaving members, starting a rebalance for the others; answers in the request's form (one
 * member up to version 2, a result per member from 3). A static member may be named by its group
 * instance id alone; one named with a member id that no longer holds the instance is
 * FENCED_INSTANCE_ID.
 */
public final class LeaveGroupHandler implements ApiHandler {

    private final GroupCoordinator coordinator;

    public LeaveGroupHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public void handle(Request request) {
        LeaveGroupRequest body = request.body();
        Optional<ClassicGroup> group = coordinator.existingGroup(body.groupId());
        Errors groupError = group.isPresent() ? Errors.NONE
            : coordinator.isCoordinatorOf(body.groupId()) ? Errors.UNKNOWN_MEMBER_ID : Errors.NOT_COORDINATOR;
        if (request.version() < LeaveGroupRequest.FIRST_BATCHED_VERSION) {
            Errors error = group.map(g -> g.leave(body.memberId(), null, coordinator.nowMs())).orElse(groupError);
            request.respond(new LeaveGroupResponse(0, error.code(), List.of()));
            return;
        }
        if (group.isEmpty() && groupError == Errors.NOT_COORDINATOR) {
            request.respond(new LeaveGroupResponse(0, groupError.code(), List.of()));
            return;
        }
        List<LeaveGroupResponse.MemberResult> results = new ArrayList<>();
        for (LeaveGroupRequest.Member m : body.members()) {
            Errors error = group.map(g -> g.leave(m.memberId() == null ? "" : m.memberId(), m.groupInstanceId(), coordinator.nowMs())).orElse(Errors.UNKNOWN_MEMBER_ID);
            results.add(new LeaveGroupResponse.MemberResult(m.memberId(), m.groupInstanceId(), error.code()));
        }
        request.respond(new LeaveGroupResponse(0, Errors.NONE.code(), results));
    }
}
