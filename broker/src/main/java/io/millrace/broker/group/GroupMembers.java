package io.millrace.broker.group;

import io.millrace.common.protocol.message.JoinGroupRequest;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Who is in a classic group: its members in joining order (the first is the leader when none is
 * kept), the member ids handed out with MEMBER_ID_REQUIRED that have not joined yet, and the static
 * members' instance ids. Also what follows from the members alone: whether a join's protocols fit,
 * the protocol every member supports, the longest rebalance timeout. Guarded by the group's lock.
 */
final class GroupMembers {

    private final Map<String, GroupMember> members = new LinkedHashMap<>();
    /** Member id handed out with MEMBER_ID_REQUIRED -> when it is forgotten unless it joins. */
    private final Map<String, Long> pending = new HashMap<>();
    private final StaticMembers statics = new StaticMembers();

    GroupMember get(String memberId) {
        return members.get(memberId);
    }

    boolean contains(String memberId) {
        return members.containsKey(memberId);
    }

    Collection<GroupMember> all() {
        return members.values();
    }

    /** A copy, for loops that remove members. */
    List<GroupMember> copy() {
        return List.copyOf(members.values());
    }

    List<String> ids() {
        return List.copyOf(members.keySet());
    }

    String firstId() {
        return members.keySet().iterator().next();
    }

    boolean isEmpty() {
        return members.isEmpty();
    }

    /** Whether the members and the ids waiting to join reach {@code maxSize}. */
    boolean full(int maxSize) {
        return members.size() + pending.size() >= maxSize;
    }

    void add(GroupMember member) {
        members.put(member.memberId, member);
    }

    /** Removes the member and frees its instance id if it still holds it. */
    void remove(GroupMember member) {
        members.remove(member.memberId);
        statics.removeIfHeld(member.groupInstanceId, member.memberId);
    }

    /** Puts a restarted static member in place of the one it fences, under its new member id. */
    void replace(String oldId, GroupMember replacement) {
        members.remove(oldId);
        members.put(replacement.memberId, replacement);
        statics.put(replacement.groupInstanceId, replacement.memberId);
    }

    StaticMembers statics() {
        return statics;
    }

    void addPending(String memberId, long deadlineMs) {
        pending.put(memberId, deadlineMs);
    }

    /** Whether {@code memberId} was handed out and not yet used; it is used now. */
    boolean takePending(String memberId) {
        return pending.remove(memberId) != null;
    }

    void expirePending(long nowMs) {
        pending.values().removeIf(deadline -> deadline <= nowMs);
    }

    boolean hasPending() {
        return !pending.isEmpty();
    }

    void clearPending() {
        pending.clear();
    }

    void clear() {
        members.clear();
        pending.clear();
        statics.clear();
    }

    /** Whether every member has sent its JoinGroup and no handed-out id is still to come. */
    boolean allJoined() {
        return pending.isEmpty() && members.values().stream().allMatch(m -> m.awaitingJoin != null);
    }

    int longestRebalanceTimeoutMs() {
        return members.values().stream().mapToInt(m -> m.rebalanceTimeoutMs).max().orElse(0);
    }

    /** Whether {@code join} keeps some protocol supported by every other member, of the group's type. */
    boolean compatible(JoinGroupRequest join, String protocolType) {
        if (members.isEmpty()) {
            return true;
        }
        if (!join.protocolType().equals(protocolType)) {
            return false;
        }
        for (JoinGroupRequest.Protocol p : join.protocols()) {
            String name = p.name();
            if (members.values().stream().filter(m -> !m.memberId.equals(join.memberId())).allMatch(m -> m.supports(name))) {
                return true;
            }
        }
        return false;
    }

    /** The first protocol, in the leader's (or first member's) order of preference, that every member supports. */
    String chooseProtocol(String leaderId) {
        GroupMember first = members.getOrDefault(leaderId, members.values().iterator().next());
        for (JoinGroupRequest.Protocol p : first.protocols) {
            if (members.values().stream().allMatch(m -> m.supports(p.name()))) {
                return p.name();
            }
        }
        throw new IllegalStateException("The members have no common protocol; joins are checked for one");
    }

    /** Every member's metadata for every protocol it offers: what its subscription can be read from. */
    List<ByteBuffer> metadata() {
        List<ByteBuffer> all = new ArrayList<>();
        for (GroupMember m : members.values()) {
            m.protocols.forEach(p -> all.add(p.metadata().duplicate()));
        }
        return all;
    }

    /**
     * Drops the JoinGroup and SyncGroup answers whose client has disconnected. A member whose SyncGroup
     * answer is dropped gets a session's time from {@code nowMs} to rejoin: Kafka's client drops its
     * connection when a session passes without a heartbeat answer (they wait behind the SyncGroup) and
     * rejoins at once, where Kafka, not seeing the close, waits for the rebalance timeout.
     */
    void dropAbandonedAnswers(long nowMs) {
        for (GroupMember m : all()) {
            if (m.awaitingJoin instanceof WaitingAnswer<?> w && w.abandoned()) {
                w.drop();
                m.awaitingJoin = null;
            }
            if (m.awaitingSync instanceof WaitingAnswer<?> w && w.abandoned()) {
                w.drop();
                m.awaitingSync = null;
                m.touch(nowMs);
            }
        }
    }

    /** Each member's current assignment. */
    Map<String, ByteBuffer> assignments() {
        Map<String, ByteBuffer> assignments = new HashMap<>();
        members.values().forEach(m -> assignments.put(m.memberId, m.assignment));
        return assignments;
    }

    /** The generation as its group metadata record keeps it, each member with its assignment in {@code assigned}. */
    List<GroupMetadataRecord.Member> stored(String protocol, Map<String, ByteBuffer> assigned) {
        List<GroupMetadataRecord.Member> stored = new ArrayList<>();
        for (GroupMember m : all()) {
            stored.add(m.stored(protocol, assigned.getOrDefault(m.memberId, ByteBuffer.allocate(0))));
        }
        return stored;
    }

    /** Adds the members of a generation read back from its record, each with a session's time from {@code nowMs}. */
    void restore(List<GroupMetadataRecord.Member> stored, String protocol, long nowMs) {
        for (GroupMetadataRecord.Member s : stored) {
            GroupMember member = new GroupMember(s, protocol);
            member.touch(nowMs);
            add(member);
            if (member.groupInstanceId != null) {
                statics.put(member.groupInstanceId, member.memberId);
            }
        }
    }

    /**
     * The members as DescribeGroups reports them: with their metadata for {@code stableProtocol} and
     * their assignments while the group is Stable, without both otherwise ({@code stableProtocol} null).
     */
    List<GroupDescription.Member> describe(String stableProtocol) {
        boolean stable = stableProtocol != null;
        List<GroupDescription.Member> list = new ArrayList<>();
        for (GroupMember m : all()) {
            list.add(new GroupDescription.Member(m.memberId, m.groupInstanceId, m.clientId, m.clientHost,
                stable ? m.metadataFor(stableProtocol).duplicate() : ByteBuffer.allocate(0),
                stable ? m.assignment.duplicate() : ByteBuffer.allocate(0)));
        }
        return list;
    }
}
