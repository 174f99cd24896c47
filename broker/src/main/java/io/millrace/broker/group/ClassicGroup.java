package io.millrace.broker.group;

import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.JoinGroupRequest;
import io.millrace.common.protocol.message.JoinGroupResponse;
import io.millrace.common.protocol.message.SyncGroupRequest;
import io.millrace.common.protocol.message.SyncGroupResponse;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * One group of Kafka's classic protocol and its state machine (see {@link GroupState}). Time comes in
 * as {@code nowMs} arguments and deadlines are checked by {@link #tick}, so the coordinator's timer
 * drives it in production and tests drive it with a fake clock. Every method takes the group's lock;
 * answers are handed to the callbacks under it (they only queue a response).
 *
 * <p>A rebalance: the first join, a new member, a leaving or expired member, or the leader rejoining
 * moves the group to PreparingRebalance; JoinGroup answers wait until every known member has
 * rejoined or the longest rebalance timeout has passed (members that did not rejoin are removed);
 * then the generation is bumped, a protocol every member supports is chosen, the leader (kept if it
 * rejoined) gets the members' metadata, and the group waits in CompletingRebalance for the leader's
 * SyncGroup, whose assignments answer every member's SyncGroup.
 */
final class ClassicGroup extends GroupGeneration {

    private long rebalanceDeadlineMs;
    /** The host of the JoinGroup being handled, under the lock; given to the member it adds. */
    private String joiningHost = "";
    private final InitialJoinDelay initialDelay;
    private final GroupStore store;
    /** Whether the leader's assignments are being stored: the group goes Stable once they are. */
    private boolean storing;

    ClassicGroup(String groupId, GroupConfig config) {
        this(groupId, config, InitialJoinDelay.Timer.TICK_ONLY, GroupStore.NONE);
    }

    /**
     * {@code timer} completes the initial rebalance delay on time rather than at the next tick;
     * {@code store} keeps each generation once its assignments are in.
     */
    ClassicGroup(String groupId, GroupConfig config, InitialJoinDelay.Timer timer, GroupStore store) {
        super(groupId, config);
        this.store = store;
        this.initialDelay = new InitialJoinDelay(config.initialRebalanceDelayMs(), timer, this::completeDelayedJoin);
    }

    private synchronized void completeDelayedJoin(long nowMs) {
        tryCompleteJoin(nowMs, true);
    }

    /**
     * Handles a JoinGroup; {@code answer} is called now or when the rebalance completes. {@code clientHost} is
     * what DescribeGroups reports of the member ("/127.0.0.1"). A dead group (retired while idle, or unloaded)
     * answers nothing and returns false, so that the caller can join the group that replaces it.
     */
    synchronized boolean join(JoinGroupRequest join, String clientId, String clientHost, short version, long nowMs,
                              Consumer<JoinGroupResponse> answer) {
        if (state == GroupState.DEAD) {
            return false;
        }
        joiningHost = clientHost;
        if (join.sessionTimeoutMs() < config.minSessionTimeoutMs() || join.sessionTimeoutMs() > config.maxSessionTimeoutMs()) {
            answer.accept(GroupResponses.joinError(Errors.INVALID_SESSION_TIMEOUT, join.memberId()));
        } else if (join.protocols().isEmpty() || !members.compatible(join, protocolType)) {
            answer.accept(GroupResponses.joinError(Errors.INCONSISTENT_GROUP_PROTOCOL, join.memberId()));
        } else if (join.groupInstanceId() != null && join.memberId().isEmpty()) {
            joinStatic(join, clientId, version, nowMs, answer);
        } else if (members.statics().check(join.groupInstanceId(), join.memberId()) != Errors.NONE) {
            Errors fenced = members.statics().check(join.groupInstanceId(), join.memberId());
            answer.accept(GroupResponses.joinError(fenced, join.memberId()));
        } else if (join.memberId().isEmpty()) {
            joinNewMember(join, clientId, version, nowMs, answer);
        } else if (members.takePending(join.memberId())) {
            addMember(join.memberId(), join, clientId, nowMs, answer);
        } else {
            GroupMember member = members.get(join.memberId());
            if (member == null) {
                answer.accept(GroupResponses.joinError(Errors.UNKNOWN_MEMBER_ID, join.memberId()));
            } else {
                rejoin(member, join, nowMs, answer);
            }
        }
        return true;
    }

    private void joinNewMember(JoinGroupRequest join, String clientId, short version, long nowMs,
                               Consumer<JoinGroupResponse> answer) {
        if (members.full(config.maxSize())) {
            answer.accept(GroupResponses.joinError(Errors.GROUP_MAX_SIZE_REACHED, ""));
            return;
        }
        String memberId = clientId + "-" + UUID.randomUUID();
        if (version >= 4) {
            // the member must come back with the id, so a client that gives up leaves no member behind
            members.addPending(memberId, nowMs + join.sessionTimeoutMs());
            answer.accept(GroupResponses.joinError(Errors.MEMBER_ID_REQUIRED, memberId));
            return;
        }
        addMember(memberId, join, clientId, nowMs, answer);
    }

    /**
     * A static member joining without a member id: a new one is added (no MEMBER_ID_REQUIRED, its
     * instance id names it), and a known instance is replaced under a new member id, fencing the
     * old one. A replaced member whose protocols keep the group's gets the current generation at once, so a
     * restart within the session timeout causes no rebalance; a leader is told to skip assigning
     * (version 9), its SyncGroup then returning the assignment it had.
     */
    private void joinStatic(JoinGroupRequest join, String clientId, short version, long nowMs,
                            Consumer<JoinGroupResponse> answer) {
        String newId = clientId + "-" + UUID.randomUUID();
        String oldId = members.statics().memberOf(join.groupInstanceId());
        GroupMember old = oldId == null ? null : members.get(oldId);
        if (old == null) {
            if (members.full(config.maxSize())) {
                answer.accept(GroupResponses.joinError(Errors.GROUP_MAX_SIZE_REACHED, ""));
                return;
            }
            members.statics().put(join.groupInstanceId(), newId);
            addMember(newId, join, clientId, nowMs, answer);
            return;
        }
        GroupMember replacement = new GroupMember(newId, join.groupInstanceId(), clientId, join);
        replacement.clientHost = joiningHost;
        replacement.assignment = old.assignment;
        replacement.touch(nowMs);
        old.fence();
        members.replace(oldId, replacement);
        if (oldId.equals(leaderId)) {
            leaderId = newId;
        }
        switch (state) {
            case PREPARING_REBALANCE -> {
                replacement.awaitingJoin = answer;
                tryCompleteJoin(nowMs);
            }
            case STABLE, COMPLETING_REBALANCE -> {
                // a fresh client's metadata differs (no owned partitions, no generation): only a
                // change of the group's protocol calls for a rebalance, as in Kafka
                if (members.chooseProtocol(leaderId).equals(protocolName)) {
                    boolean leader = newId.equals(leaderId);
                    JoinGroupResponse joined = joinAnswer(replacement, leader, leader && state == GroupState.STABLE);
                    if (state == GroupState.COMPLETING_REBALANCE) {
                        answer.accept(joined); // the generation is stored with the new id once assigned
                        return;
                    }
                    // stored before the answer, as in Kafka, so a coordinator taking over knows the new id
                    store.store(groupId, generationRecord(members.assignments(), nowMs)).whenComplete((ok, failure) ->
                        answer.accept(failure == null ? joined
                            : GroupResponses.joinError(GroupResponses.storeError(failure), newId)));
                } else {
                    replacement.awaitingJoin = answer;
                    prepareRebalance(nowMs);
                    tryCompleteJoin(nowMs);
                }
            }
            default -> answer.accept(GroupResponses.joinError(Errors.UNKNOWN_MEMBER_ID, ""));
        }
    }

    private void addMember(String memberId, JoinGroupRequest join, String clientId, long nowMs,
                           Consumer<JoinGroupResponse> answer) {
        if (members.isEmpty()) {
            protocolType = join.protocolType();
        }
        GroupMember member = new GroupMember(memberId, join.groupInstanceId(), clientId, join);
        member.clientHost = joiningHost;
        member.awaitingJoin = answer;
        member.touch(nowMs);
        members.add(member);
        initialDelay.memberJoined();
        prepareRebalance(nowMs);
        tryCompleteJoin(nowMs);
    }

    private void rejoin(GroupMember member, JoinGroupRequest join, long nowMs, Consumer<JoinGroupResponse> answer) {
        member.touch(nowMs);
        switch (state) {
            case PREPARING_REBALANCE -> {
                member.update(join);
                member.replaceJoinAnswer(answer);
                tryCompleteJoin(nowMs);
            }
            case COMPLETING_REBALANCE, STABLE -> {
                boolean unchanged = member.sameProtocols(join);
                if (unchanged && !(state == GroupState.STABLE && member.memberId.equals(leaderId))) {
                    // a follower that missed its answer gets the current generation again
                    answer.accept(joinAnswer(member, member.memberId.equals(leaderId), false));
                } else {
                    member.update(join);
                    member.awaitingJoin = answer;
                    prepareRebalance(nowMs);
                    tryCompleteJoin(nowMs);
                }
            }
            default -> answer.accept(GroupResponses.joinError(Errors.UNKNOWN_MEMBER_ID, member.memberId));
        }
    }

    private void prepareRebalance(long nowMs) {
        if (state == GroupState.COMPLETING_REBALANCE) {
            for (GroupMember m : members.all()) {
                answerSync(m, Errors.REBALANCE_IN_PROGRESS, ByteBuffer.allocate(0));
            }
        }
        if (state == GroupState.EMPTY) {
            initialDelay.start(nowMs, members.longestRebalanceTimeoutMs());
        }
        if (state != GroupState.PREPARING_REBALANCE) {
            rebalanceDeadlineMs = nowMs + members.longestRebalanceTimeoutMs();
            state = GroupState.PREPARING_REBALANCE;
        }
    }

    private void tryCompleteJoin(long nowMs) {
        tryCompleteJoin(nowMs, false);
    }

    private void tryCompleteJoin(long nowMs, boolean fromTimer) {
        if (state != GroupState.PREPARING_REBALANCE || initialDelay.holds(nowMs, fromTimer)) {
            return;
        }
        if (!members.allJoined() && nowMs < rebalanceDeadlineMs) {
            return;
        }
        for (GroupMember m : members.copy()) {
            if (m.awaitingJoin == null) {
                members.remove(m);
            }
        }
        members.clearPending();
        generationId++;
        if (members.isEmpty()) {
            state = GroupState.EMPTY;
            protocolName = null;
            leaderId = null;
            store.store(groupId, null);
            return;
        }
        if (leaderId == null || !members.contains(leaderId)) {
            leaderId = members.firstId();
        }
        protocolName = members.chooseProtocol(leaderId);
        state = GroupState.COMPLETING_REBALANCE;
        // the members' SyncGroups are due within the rebalance timeout, as in Kafka
        rebalanceDeadlineMs = nowMs + members.longestRebalanceTimeoutMs();
        for (GroupMember m : members.all()) {
            m.assignment = ByteBuffer.allocate(0);
            m.touch(nowMs);
            Consumer<JoinGroupResponse> answer = m.awaitingJoin;
            m.awaitingJoin = null;
            answer.accept(joinAnswer(m, m.memberId.equals(leaderId), false));
        }
    }

    /** Handles a SyncGroup; {@code answer} is called now or when the leader's assignments arrive. */
    synchronized void sync(SyncGroupRequest sync, long nowMs, Consumer<SyncGroupResponse> answer) {
        GroupMember member = members.get(sync.memberId());
        Errors error = checkMember(member, sync.generationId(), sync.groupInstanceId(), sync.memberId());
        if (error == Errors.NONE && state == GroupState.PREPARING_REBALANCE) {
            error = Errors.REBALANCE_IN_PROGRESS;
        } else if (error == Errors.NONE && !protocolMatches(sync)) {
            error = Errors.INCONSISTENT_GROUP_PROTOCOL;
        }
        if (error != Errors.NONE) {
            answer.accept(GroupResponses.syncError(error));
            return;
        }
        member.touch(nowMs);
        if (state == GroupState.STABLE) {
            answer.accept(syncAnswer(member.assignment));
            return;
        }
        member.awaitingSync = answer;
        if (member.memberId.equals(leaderId) && state == GroupState.COMPLETING_REBALANCE && !storing) {
            Map<String, ByteBuffer> assigned = new HashMap<>();
            for (SyncGroupRequest.Assignment a : sync.assignments()) {
                if (members.contains(a.memberId())) {
                    assigned.put(a.memberId(), GroupResponses.copy(a.assignment()));
                }
            }
            storing = true;
            int generation = generationId;
            store.store(groupId, generationRecord(assigned, nowMs))
                .whenComplete((ok, failure) -> stored(generation, assigned, failure, nowMs));
        }
    }

    /**
     * The generation's assignments are stored, or could not be: the members get them and the group is
     * Stable, or, as in Kafka, they get the error and the group rebalances. A rebalance begun
     * meanwhile has answered them already.
     */
    private synchronized void stored(int generation, Map<String, ByteBuffer> assigned, Throwable failure, long nowMs) {
        storing = false;
        if (state != GroupState.COMPLETING_REBALANCE || generationId != generation) {
            return;
        }
        if (failure != null) {
            Errors error = GroupResponses.storeError(failure);
            for (GroupMember m : members.all()) {
                answerSync(m, error, ByteBuffer.allocate(0));
            }
            prepareRebalance(nowMs);
            return;
        }
        for (GroupMember m : members.all()) {
            m.assignment = assigned.getOrDefault(m.memberId, ByteBuffer.allocate(0));
        }
        state = GroupState.STABLE;
        for (GroupMember m : members.all()) {
            answerSync(m, Errors.NONE, m.assignment);
        }
    }

    private boolean protocolMatches(SyncGroupRequest sync) {
        return (sync.protocolType() == null || sync.protocolType().equals(protocolType))
            && (sync.protocolName() == null || sync.protocolName().equals(protocolName));
    }

    private void answerSync(GroupMember member, Errors error, ByteBuffer assignment) {
        Consumer<SyncGroupResponse> answer = member.awaitingSync;
        member.awaitingSync = null;
        if (answer != null) {
            answer.accept(error == Errors.NONE ? syncAnswer(assignment)
                : GroupResponses.syncError(error));
        }
    }

    /** Handles a Heartbeat: REBALANCE_IN_PROGRESS tells the member to rejoin. */
    synchronized Errors heartbeat(String memberId, String instanceId, int generation, long nowMs) {
        GroupMember member = members.get(memberId);
        Errors error = checkMember(member, generation, instanceId, memberId);
        if (error != Errors.NONE) {
            return error;
        }
        member.touch(nowMs);
        return state == GroupState.PREPARING_REBALANCE ? Errors.REBALANCE_IN_PROGRESS : Errors.NONE;
    }

    /** Removes a member that leaves; UNKNOWN_MEMBER_ID when it is not one. */
    synchronized Errors leave(String memberId, String instanceId, long nowMs) {
        if (instanceId != null) {
            String holder = members.statics().memberOf(instanceId);
            if (holder == null) {
                return Errors.UNKNOWN_MEMBER_ID;
            }
            if (!memberId.isEmpty() && !holder.equals(memberId)) {
                return Errors.FENCED_INSTANCE_ID;
            }
            memberId = holder;
        }
        if (members.takePending(memberId)) {
            tryCompleteJoin(nowMs);
            return Errors.NONE;
        }
        GroupMember member = members.get(memberId);
        if (state == GroupState.DEAD || member == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        remove(member, nowMs);
        return Errors.NONE;
    }

    private void remove(GroupMember member, long nowMs) {
        members.remove(member);
        if (member.awaitingJoin != null) {
            member.awaitingJoin.accept(GroupResponses.joinError(Errors.UNKNOWN_MEMBER_ID, member.memberId));
        }
        answerSync(member, Errors.UNKNOWN_MEMBER_ID, ByteBuffer.allocate(0));
        if (state == GroupState.STABLE || state == GroupState.COMPLETING_REBALANCE) {
            prepareRebalance(nowMs);
        }
        tryCompleteJoin(nowMs);
    }

    /**
     * Whether a commit from {@code memberId} at {@code generation} may be written: a member of the
     * current generation (also while a rebalance is being prepared, so it can commit before
     * rejoining), or a consumer outside the group (generation -1) while the group is empty. The
     * member and its generation are checked before the state, as Kafka does, so a stranger or a
     * member of an old generation is told so (and fenced) rather than asked to retry while the
     * group completes a rebalance.
     */
    synchronized Errors checkCommit(String memberId, String instanceId, int generation, long nowMs) {
        if (generation < 0 && (state == GroupState.EMPTY || state == GroupState.DEAD)) {
            return Errors.NONE;
        }
        GroupMember member = members.get(memberId);
        Errors error = checkMember(member, generation, instanceId, memberId);
        if (error != Errors.NONE) {
            return error;
        }
        if (state == GroupState.COMPLETING_REBALANCE) {
            return Errors.REBALANCE_IN_PROGRESS;
        }
        member.touch(nowMs);
        return Errors.NONE;
    }

    /**
     * Expires members past their session timeout and completes a rebalance past its timeout; drops
     * waiting answers whose client has disconnected.
     */
    synchronized void tick(long nowMs) {
        members.expirePending(nowMs);
        members.dropAbandonedAnswers(nowMs);
        for (GroupMember m : members.copy()) {
            // a member waiting for its JoinGroup or SyncGroup answer cannot heartbeat, as its
            // heartbeats wait behind that request on its connection: Kafka keeps it alive too
            boolean waiting = m.awaitingJoin != null || m.awaitingSync != null;
            if (!waiting && m.sessionDeadlineMs <= nowMs && members.contains(m.memberId)) {
                remove(m, nowMs);
            }
        }
        if (state == GroupState.COMPLETING_REBALANCE && nowMs >= rebalanceDeadlineMs) {
            removeUnsynced(nowMs);
        }
        tryCompleteJoin(nowMs, true);
    }

    /**
     * Removes the members that sent no SyncGroup within the rebalance timeout (a leader that never
     * assigns among them), so the others, kept alive while they wait, rebalance without them.
     */
    private void removeUnsynced(long nowMs) {
        List<GroupMember> unsynced = members.all().stream().filter(m -> m.awaitingSync == null).toList();
        for (GroupMember m : unsynced) {
            if (members.contains(m.memberId)) {
                remove(m, nowMs);
            }
        }
    }

    /** Marks the group dead (its coordinator moved) and tells every waiting member so. */
    synchronized void unload() {
        initialDelay.cancel();
        for (GroupMember m : members.all()) {
            if (m.awaitingJoin != null) {
                m.awaitingJoin.accept(GroupResponses.joinError(Errors.NOT_COORDINATOR, m.memberId));
                m.awaitingJoin = null;
            }
            answerSync(m, Errors.NOT_COORDINATOR, ByteBuffer.allocate(0));
        }
        members.clear();
        state = GroupState.DEAD;
    }

}
