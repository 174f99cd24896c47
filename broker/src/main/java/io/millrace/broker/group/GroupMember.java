package io.millrace.broker.group;

import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.JoinGroupRequest;
import io.millrace.common.protocol.message.JoinGroupResponse;
import io.millrace.common.protocol.message.SyncGroupResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Consumer;

/** One member of a classic group, with the answers it waits for; guarded by its group's lock. */
final class GroupMember {

    final String memberId;
    final String groupInstanceId;
    final String clientId;
    /** Where the member's last JoinGroup came from, as Kafka shows it ("/127.0.0.1"). */
    String clientHost = "";
    int sessionTimeoutMs;
    int rebalanceTimeoutMs;
    List<JoinGroupRequest.Protocol> protocols;
    /** The JoinGroup answer it waits for during a rebalance, or null. */
    Consumer<JoinGroupResponse> awaitingJoin;
    /** The SyncGroup answer it waits for until the leader's assignments arrive, or null. */
    Consumer<SyncGroupResponse> awaitingSync;
    ByteBuffer assignment = ByteBuffer.allocate(0);
    /** When the member is removed unless it heartbeats, joins, syncs or commits first. */
    long sessionDeadlineMs;

    GroupMember(String memberId, String groupInstanceId, String clientId, JoinGroupRequest join) {
        this.memberId = memberId;
        this.groupInstanceId = groupInstanceId;
        this.clientId = clientId;
        update(join);
    }

    /** A member of a generation another coordinator formed, read back from its group metadata record. */
    GroupMember(GroupMetadataRecord.Member stored, String protocol) {
        this.memberId = stored.memberId();
        this.groupInstanceId = stored.groupInstanceId();
        this.clientId = stored.clientId();
        this.clientHost = stored.clientHost();
        this.sessionTimeoutMs = stored.sessionTimeoutMs();
        this.rebalanceTimeoutMs = stored.rebalanceTimeoutMs();
        // only the chosen protocol's metadata is kept, as in Kafka
        this.protocols = List.of(new JoinGroupRequest.Protocol(protocol, stored.subscription()));
        this.assignment = stored.assignment();
    }

    /** The member as its generation's group metadata record holds it, with {@code assigned} as its assignment. */
    GroupMetadataRecord.Member stored(String protocol, ByteBuffer assigned) {
        return new GroupMetadataRecord.Member(memberId, groupInstanceId, clientId, clientHost, rebalanceTimeoutMs,
            sessionTimeoutMs, metadataFor(protocol).duplicate(), assigned.duplicate());
    }

    void update(JoinGroupRequest join) {
        this.sessionTimeoutMs = join.sessionTimeoutMs();
        this.rebalanceTimeoutMs = join.effectiveRebalanceTimeoutMs();
        // the metadata are slices of the request's network buffer, reused once the request is handled
        this.protocols = join.protocols().stream()
            .map(p -> new JoinGroupRequest.Protocol(p.name(), GroupResponses.copy(p.metadata()))).toList();
    }

    void touch(long nowMs) {
        sessionDeadlineMs = nowMs + sessionTimeoutMs;
    }

    boolean supports(String protocol) {
        return metadataFor(protocol) != null;
    }

    ByteBuffer metadataFor(String protocol) {
        for (JoinGroupRequest.Protocol p : protocols) {
            if (p.name().equals(protocol)) {
                return p.metadata();
            }
        }
        return null;
    }

    /** Answers whatever this member, replaced by a restarted static member, still waits for with FENCED_INSTANCE_ID. */
    void fence() {
        if (awaitingJoin != null) {
            awaitingJoin.accept(GroupResponses.joinError(Errors.FENCED_INSTANCE_ID, memberId));
            awaitingJoin = null;
        }
        if (awaitingSync != null) {
            awaitingSync.accept(GroupResponses.syncError(Errors.FENCED_INSTANCE_ID));
            awaitingSync = null;
        }
    }

    /** Waits with {@code answer} instead of an earlier JoinGroup the client gave up on, answering that one. */
    void replaceJoinAnswer(Consumer<JoinGroupResponse> answer) {
        if (awaitingJoin != null && awaitingJoin != answer) {
            // Kafka answers the older request with an error
            awaitingJoin.accept(GroupResponses.joinError(Errors.UNKNOWN_MEMBER_ID, memberId));
        }
        awaitingJoin = answer;
    }

    /** Whether {@code join} carries the same protocols and metadata, so a rejoin changes nothing. */
    boolean sameProtocols(JoinGroupRequest join) {
        return protocols.equals(join.protocols());
    }
}
