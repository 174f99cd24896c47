package io.millrace.broker.group;

import io.millrace.broker.server.ApiHandler;
import io.millrace.broker.server.Request;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.JoinGroupRequest;
import io.millrace.common.protocol.message.JoinGroupResponse;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Joins a member to its group; the answer usually comes later, when the rebalance completes. A
 * group's first member waits for the group to be marked as Kafka's in ZooKeeper and checked for
 * ZooKeeper group consumers: a group id that has them is refused INCONSISTENT_GROUP_PROTOCOL (JoinGroup
 * has no error message at any version, so the reason goes to the broker's log).
 */
public final class JoinGroupHandler implements ApiHandler {

    private static final Logger LOG = LoggerFactory.getLogger(JoinGroupHandler.class);

    /** How many dead groups in a row a join passes over before it asks the client to try again. */
    private static final int MAX_DEAD_GROUPS = 5;

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
        if (coordinator.consumerGroups().active(body.groupId()).isPresent()) {
            LOG.warn("JoinGroup from {} refused: group {} has members on the consumer group protocol", clientHost(request),
                body.groupId());
            request.respond(error(Errors.INCONSISTENT_GROUP_PROTOCOL, body.memberId()));
            return;
        }
        if (group.get().isIdle()) {
            // a first member: the group id must not be in use by ZooKeeper group consumers
            coordinator.claimForKafka(body.groupId()).whenComplete((conflict, failure) -> {
                if (failure != null) {
                    LOG.warn("Could not check the kind of group {}", body.groupId(), failure);
                    request.respond(error(Errors.COORDINATOR_NOT_AVAILABLE, body.memberId()));
                } else if (conflict != null) {
                    LOG.warn("JoinGroup from {} refused: {}", clientHost(request), conflict);
                    request.respond(error(Errors.INCONSISTENT_GROUP_PROTOCOL, body.memberId()));
                } else {
                    join(request, body);
                }
            });
            return;
        }
        join(request, body);
    }

    private void join(Request request, JoinGroupRequest body) {
        String clientId = request.header().clientId() == null ? "" : request.header().clientId();
        Optional<ClassicGroup> group = coordinator.group(body.groupId());
        // The coordinator's tick retires idle groups: one it retired after the lookup above is dead, and the
        // join goes to its successor, as it would have had it come a moment later (Kafka's clients would be
        // told COORDINATOR_NOT_AVAILABLE and look for the coordinator again).
        for (int attempt = 0; group.isPresent() && attempt < MAX_DEAD_GROUPS; attempt++) {
            if (group.get().join(body, clientId, clientHost(request), request.version(), coordinator.nowMs(),
                    new WaitingAnswer<>(request))) {
                return;
            }
            group = coordinator.groupAfter(group.get());
        }
        request.respond(error(group.isEmpty() ? Errors.NOT_COORDINATOR : Errors.COORDINATOR_NOT_AVAILABLE, body.memberId()));
    }

    /** Kafka's form of the member's address, "/127.0.0.1". */
    static String clientHost(Request request) {
        java.net.InetSocketAddress remote = request.context().remoteAddress();
        return remote == null || remote.getAddress() == null ? "" : "/" + remote.getAddress().getHostAddress();
    }

    private static JoinGroupResponse error(Errors error, String memberId) {
        return new JoinGroupResponse(0, error.code(), -1, null, "", "", false, memberId, List.of());
    }
}
