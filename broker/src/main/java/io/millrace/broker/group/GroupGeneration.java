package io.millrace.broker.group;

import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.JoinGroupResponse;
import io.millrace.common.protocol.message.SyncGroupResponse;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a classic group is at a moment: its state, generation, protocol, leader and members, what
 * DescribeGroups and the JoinGroup and SyncGroup answers tell of it, and the record that stores a
 * generation and restores it on another coordinator. {@link ClassicGroup} moves it from state to
 * state. Guarded by the group's lock (this object's monitor).
 */
abstract class GroupGeneration {

    final String groupId;
    final GroupConfig config;
    final GroupMembers members = new GroupMembers();
    GroupState state = GroupState.EMPTY;
    int generationId;
    String protocolType;
    String protocolName;
    String leaderId;

    GroupGeneration(String groupId, GroupConfig config) {
        this.groupId = groupId;
        this.config = config;
    }

    /** The current generation with {@code assigned} as the members' assignments, as it is stored. */
    GroupMetadataRecord generationRecord(Map<String, ByteBuffer> assigned, long nowMs) {
        return new GroupMetadataRecord(protocolType, generationId, protocolName, leaderId, nowMs,
            members.stored(protocolName, assigned));
    }

    /**
     * Takes over the generation another coordinator stored: Stable, with its members, each given a
     * session's time from {@code nowMs} to reach this coordinator, as Kafka does when it loads a group.
     */
    synchronized void restore(GroupMetadataRecord stored, long nowMs) {
        generationId = stored.generation();
        protocolType = stored.protocolType();
        protocolName = stored.protocol();
        leaderId = stored.leader();
        members.restore(stored.members(), protocolName, nowMs);
        state = members.isEmpty() ? GroupState.EMPTY : GroupState.STABLE;
    }

    String groupId() {
        return groupId;
    }

    synchronized GroupState state() {
        return state;
    }

    synchronized int generationId() {
        return generationId;
    }

    synchronized String leaderId() {
        return leaderId;
    }

    synchronized List<String> memberIds() {
        return members.ids();
    }

    /** The JoinGroup answer of the current generation; the leader's lists the members with their metadata. */
    JoinGroupResponse joinAnswer(GroupMember member, boolean asLeader, boolean skipAssignment) {
        List<JoinGroupResponse.Member> list = new ArrayList<>();
        if (asLeader) {
            for (GroupMember m : members.all()) {
                list.add(new JoinGroupResponse.Member(m.memberId, m.groupInstanceId, m.metadataFor(protocolName).duplicate()));
            }
        }
        return new JoinGroupResponse(0, Errors.NONE.code(), generationId, protocolType, protocolName, leaderId,
            skipAssignment, member.memberId, list);
    }

    SyncGroupResponse syncAnswer(ByteBuffer assignment) {
        return new SyncGroupResponse(0, Errors.NONE.code(), protocolType, protocolName, assignment.duplicate());
    }

    /** FENCED_INSTANCE_ID, UNKNOWN_MEMBER_ID or ILLEGAL_GENERATION for a request not from a current member, else NONE. */
    Errors checkMember(GroupMember member, int generation, String instanceId, String memberId) {
        Errors fenced = members.statics().check(instanceId, memberId);
        if (fenced == Errors.FENCED_INSTANCE_ID) {
            return fenced;
        }
        if (state == GroupState.DEAD || member == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        return generation == generationId ? Errors.NONE : Errors.ILLEGAL_GENERATION;
    }

    /** Whether the group has neither members nor members waiting to join with the id they were given. */
    synchronized boolean isIdle() {
        return members.isEmpty() && !members.hasPending();
    }

    /**
     * What DescribeGroups reports, copied under the lock. As in Kafka, members' metadata and
     * assignments and the protocol name are given only while the group is Stable.
     */
    synchronized GroupDescription describe() {
        boolean stable = state == GroupState.STABLE;
        List<GroupDescription.Member> list = members.describe(stable ? protocolName : null);
        return new GroupDescription(groupId, state, protocolType == null ? "" : protocolType,
            stable ? protocolName : "", list);
    }

    /** Every member's metadata for every protocol it offers: what its subscription can be read from. */
    synchronized List<ByteBuffer> memberMetadata() {
        return members.metadata();
    }

    /**
     * Marks an empty group dead so it can be dropped from memory (its offsets stay in ZooKeeper); a
     * join that still holds it goes to the fresh group that replaces it ({@link ClassicGroup#join} returns false).
     */
    synchronized boolean retireIfIdle() {
        if (state == GroupState.EMPTY && !members.hasPending()) {
            state = GroupState.DEAD;
            return true;
        }
        return false;
    }
}
