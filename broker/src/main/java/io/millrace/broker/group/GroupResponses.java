package io.millrace.broker.group;

import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.JoinGroupResponse;
import io.millrace.common.protocol.message.SyncGroupResponse;
import java.nio.ByteBuffer;
import java.util.List;

/** The error answers of JoinGroup and SyncGroup, written valid at every version. */
final class GroupResponses {

    private GroupResponses() {
    }

    /** Protocol name "" rather than null: versions before 7 cannot write a null one. */
    static JoinGroupResponse joinError(Errors error, String memberId) {
        return new JoinGroupResponse(0, error.code(), -1, null, "", "", false, memberId == null ? "" : memberId, List.of());
    }

    static SyncGroupResponse syncError(Errors error) {
        return new SyncGroupResponse(0, error.code(), null, null, ByteBuffer.allocate(0));
    }

    /**
     * What the members are told when their generation could not be stored, as Kafka tells them: to
     * find the coordinator again when this broker no longer leads the group's partition, else to retry.
     */
    static Errors storeError(Throwable failure) {
        Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
            ? failure.getCause() : failure;
        Errors error = cause instanceof io.millrace.common.protocol.ApiException api ? api.error() : Errors.UNKNOWN_SERVER_ERROR;
        return switch (error) {
            case NOT_COORDINATOR, NOT_LEADER_OR_FOLLOWER, KAFKA_STORAGE_ERROR -> Errors.NOT_COORDINATOR;
            default -> Errors.COORDINATOR_NOT_AVAILABLE;
        };
    }

    /** A copy that outlives the request buffer {@code source} was parsed from. */
    static ByteBuffer copy(ByteBuffer source) {
        ByteBuffer copy = ByteBuffer.allocate(source.remaining());
        copy.put(source.duplicate()).flip();
        return copy;
    }
}
