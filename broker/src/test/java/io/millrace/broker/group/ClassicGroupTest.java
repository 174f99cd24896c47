package io.millrace.broker.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.JoinGroupRequest;
import io.millrace.common.protocol.message.JoinGroupResponse;
import io.millrace.common.protocol.message.SyncGroupRequest;
import io.millrace.common.protocol.message.SyncGroupResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/** The classic group state machine, driven by a fake clock (the {@code now} arguments and {@link ClassicGroup#tick}). */
public class ClassicGroupTest {

    private static final int SESSION_MS = 10_000;
    private static final int REBALANCE_MS = 30_000;
    private static final short VERSION = 9;

    /** The coordinator's one-shot timer tasks, run by {@link #runTimers} as the test's clock passes them. */
    private final List<long[]> timerDue = new ArrayList<>();
    private final List<java.util.function.LongConsumer> timerTasks = new ArrayList<>();
    private long now = 1_000;
    private final InitialJoinDelay.Timer timer = (delayMs, task) -> {
        timerDue.add(new long[] {now + delayMs});
        timerTasks.add(task);
    };
    /** The generations the group stored (null: it has none), completed at once unless {@link #holdStores}. */
    private final List<GroupMetadataRecord> stored = new ArrayList<>();
    private final List<java.util.concurrent.CompletableFuture<Void>> heldStores = new ArrayList<>();
    private boolean holdStores;
    private final GroupStore store = (groupId, record) -> {
        stored.add(record);
        java.util.concurrent.CompletableFuture<Void> done = new java.util.concurrent.CompletableFuture<>();
        if (holdStores) {
            heldStores.add(done);
        } else {
            done.complete(null);
        }
        return done;
    };
    private final ClassicGroup group = new ClassicGroup("g",
        new GroupConfig(java.util.Map.of(GroupConfig.GROUP_INITIAL_REBALANCE_DELAY_MS_CONFIG, 0)), timer, store);

    /** Runs the timer tasks due by now (at 0 delay, those the last JoinGroup scheduled). */
    private void runTimers() {
        for (int i = 0; i < timerTasks.size(); i++) {
            if (timerDue.get(i)[0] <= now + 1) {
                java.util.function.LongConsumer task = timerTasks.remove(i);
                timerDue.remove(i);
                i--;
                task.accept(now);
            }
        }
    }

    /** A JoinGroup answer slot: null until the coordinator answers. */
    private static final class Answer<T> {
        final List<T> answers = new ArrayList<>();

        void accept(T answer) {
            answers.add(answer);
        }

        T only() {
            assertEquals("answers", 1, answers.size());
            return answers.get(0);
        }

        T orNull() {
            return answers.isEmpty() ? null : only();
        }
    }

    private static JoinGroupRequest joinRequest(String memberId, String... protocols) {
        List<JoinGroupRequest.Protocol> list = new ArrayList<>();
        for (String p : protocols.length == 0 ? new String[] {"range"} : protocols) {
            list.add(new JoinGroupRequest.Protocol(p, ByteBuffer.wrap((memberId + ":" + p).getBytes(StandardCharsets.UTF_8))));
        }
        return new JoinGroupRequest("g", SESSION_MS, REBALANCE_MS, memberId, null, "consumer", list, null);
    }

    private Answer<JoinGroupResponse> join(String memberId, String... protocols) {
        Answer<JoinGroupResponse> answer = new Answer<>();
        group.join(joinRequest(memberId, protocols), "client", "", VERSION, now, answer::accept);
        runTimers();
        return answer;
    }

    /** A new member's two-step join: MEMBER_ID_REQUIRED, then the join with that id (answered later, perhaps). */
    private String newMemberId() {
        JoinGroupResponse first = join("").only();
        assertEquals(Errors.MEMBER_ID_REQUIRED, first.error());
        assertTrue(first.memberId().startsWith("client-"));
        return first.memberId();
    }

    private Answer<SyncGroupResponse> sync(String memberId, int generation, SyncGroupRequest.Assignment... assignments) {
        Answer<SyncGroupResponse> answer = new Answer<>();
        group.sync(new SyncGroupRequest("g", generation, memberId, null, "consumer", "range", List.of(assignments)), now,
            answer::accept);
        return answer;
    }

    private static SyncGroupRequest.Assignment assign(String memberId, String text) {
        return new SyncGroupRequest.Assignment(memberId, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
    }

    private static String text(ByteBuffer buffer) {
        return StandardCharsets.UTF_8.decode(buffer.duplicate()).toString();
    }

    /** Forms a stable one-member group; returns the member id. */
    private String stableLeader() {
        String a = newMemberId();
        JoinGroupResponse joined = join(a).only();
        assertEquals(Errors.NONE, joined.error());
        sync(a, joined.generationId(), assign(a, "all")).only();
        assertEquals(GroupState.STABLE, group.state());
        return a;
    }

    @Test
    public void aFirstMemberNeedsAnIdThenLeadsGenerationOneAndGetsItsOwnAssignment() {
        String a = newMemberId();
        assertEquals(GroupState.EMPTY, group.state());
        JoinGroupResponse joined = join(a).only();
        assertEquals(Errors.NONE, joined.error());
        assertEquals(1, joined.generationId());
        assertEquals(a, joined.leader());
        assertEquals("range", joined.protocolName());
        assertEquals(1, joined.members().size());
        assertEquals(a + ":range", text(joined.members().get(0).metadata()));
        assertEquals(GroupState.COMPLETING_REBALANCE, group.state());

        SyncGroupResponse synced = sync(a, 1, assign(a, "p0,p1")).only();
        assertEquals(Errors.NONE, synced.error());
        assertEquals("p0,p1", text(synced.assignment()));
        assertEquals(GroupState.STABLE, group.state());
    }

    /** Two members in generation 2, a the leader, b's SyncGroup waiting for a's assignments. */
    private String[] twoMembersCompletingWithTheFollowerWaiting(Answer<SyncGroupResponse> bSync) {
        String a = stableLeader();
        String b = newMemberId();
        Answer<JoinGroupResponse> bJoin = join(b);
        join(a).only();
        assertEquals(2, bJoin.only().generationId());
        group.sync(new SyncGroupRequest("g", 2, b, null, "consumer", "range", List.of()), now, bSync::accept);
        assertNull(bSync.orNull());
        return new String[] {a, b};
    }

    @Test
    public void aFollowerWaitingForItsAssignmentLongerThanItsSessionStaysInTheGroup() {
        Answer<SyncGroupResponse> bSync = new Answer<>();
        String[] ab = twoMembersCompletingWithTheFollowerWaiting(bSync);
        for (int i = 0; i < 3; i++) {
            now += SESSION_MS / 2;
            assertEquals(Errors.NONE, group.heartbeat(ab[0], null, 2, now)); // the leader, assigning
            group.tick(now);
        }
        assertEquals(List.of(ab[0], ab[1]), group.memberIds());
        sync(ab[0], 2, assign(ab[0], "p0"), assign(ab[1], "p1")).only();
        assertEquals("p1", text(bSync.only().assignment()));
        assertEquals(GroupState.STABLE, group.state());
    }

    @Test
    public void aLeaderThatDoesNotSyncWithinTheRebalanceTimeoutIsRemovedAndTheOthersRebalance() {
        Answer<SyncGroupResponse> bSync = new Answer<>();
        String[] ab = twoMembersCompletingWithTheFollowerWaiting(bSync);
        while (group.memberIds().size() == 2 && now < 1_000 + 2L * REBALANCE_MS) {
            now += SESSION_MS / 2;
            group.heartbeat(ab[0], null, 2, now); // alive, but never assigning
            group.tick(now);
        }
        assertEquals(List.of(ab[1]), group.memberIds());
        assertEquals(Errors.REBALANCE_IN_PROGRESS, bSync.only().error());
        assertEquals(GroupState.PREPARING_REBALANCE, group.state());
    }

    @Test
    public void aJoiningMemberWaitsUntilTheOthersRejoinAndFollowersGetTheLeadersAssignment() {
        String a = stableLeader();
        String b = newMemberId();
        Answer<JoinGroupResponse> bJoin = join(b);
        assertNull("b waits for a to rejoin", bJoin.orNull());
        assertEquals(GroupState.PREPARING_REBALANCE, group.state());
        assertEquals(Errors.REBALANCE_IN_PROGRESS, group.heartbeat(a, null, 1, now));

        JoinGroupResponse aJoined = join(a).only();
        JoinGroupResponse bJoined = bJoin.only();
        assertEquals(2, aJoined.generationId());
        assertEquals(2, bJoined.generationId());
        assertEquals("the leader stays", a, aJoined.leader());
        assertEquals(2, aJoined.members().size());
        assertTrue("followers do not see the members", bJoined.members().isEmpty());

        Answer<SyncGroupResponse> bSync = sync(b, 2);
        assertNull("b waits for the leader's assignments", bSync.orNull());
        assertEquals(Errors.NONE, group.heartbeat(b, null, 2, now));
        SyncGroupResponse aSynced = sync(a, 2, assign(a, "p0"), assign(b, "p1")).only();
        assertEquals("p0", text(aSynced.assignment()));
        assertEquals("p1", text(bSync.only().assignment()));
        assertEquals(GroupState.STABLE, group.state());
    }

    @Test
    public void aMemberThatDoesNotRejoinWithinTheRebalanceTimeoutIsRemoved() {
        String a = stableLeader();
        String b = newMemberId();
        Answer<JoinGroupResponse> bJoin = join(b);
        // a keeps heartbeating (so its session lives) but never rejoins, as a consumer stuck in poll processing
        for (int i = 0; i < 5; i++) {
            now += REBALANCE_MS / 5 - 1;
            group.heartbeat(a, null, 1, now);
            group.tick(now);
        }
        assertNull(bJoin.orNull());
        now += 10;
        group.tick(now);
        JoinGroupResponse bJoined = bJoin.only();
        assertEquals(Errors.NONE, bJoined.error());
        assertEquals(b, bJoined.leader());
        assertEquals(List.of(b), group.memberIds());
        assertEquals(Errors.UNKNOWN_MEMBER_ID, group.heartbeat(a, null, 1, now));
    }

    @Test
    public void aMemberThatStopsHeartbeatingIsExpiredAndTheOthersRebalance() {
        String a = stableLeader();
        String b = newMemberId();
        Answer<JoinGroupResponse> bJoin = join(b);
        join(a).only();
        int generation = bJoin.only().generationId();
        sync(a, generation, assign(a, "p0"), assign(b, "p1"));
        sync(b, generation).only();

        now += SESSION_MS - 1;
        assertEquals(Errors.NONE, group.heartbeat(b, null, generation, now));
        group.tick(now);
        assertEquals(GroupState.STABLE, group.state());
        now += 2;
        group.tick(now);
        assertEquals("a's session ended", List.of(b), group.memberIds());
        assertEquals(GroupState.PREPARING_REBALANCE, group.state());
        assertEquals(Errors.REBALANCE_IN_PROGRESS, group.heartbeat(b, null, generation, now));
        JoinGroupResponse rejoined = join(b).only();
        assertEquals(generation + 1, rejoined.generationId());
        assertEquals(b, rejoined.leader());
    }

    @Test
    public void heartbeatsAndCommitsAreFencedByMemberAndGeneration() {
        String a = stableLeader();
        assertEquals(Errors.UNKNOWN_MEMBER_ID, group.heartbeat("stranger", null, 1, now));
        assertEquals(Errors.ILLEGAL_GENERATION, group.heartbeat(a, null, 0, now));
        assertEquals(Errors.NONE, group.checkCommit(a, null, 1, now));
        assertEquals(Errors.ILLEGAL_GENERATION, group.checkCommit(a, null, 0, now));
        assertEquals(Errors.UNKNOWN_MEMBER_ID, group.checkCommit("", null, -1, now));

        String b = newMemberId();
        join(b);
        assertEquals("a member of the current generation may commit before rejoining", Errors.NONE,
            group.checkCommit(a, null, 1, now));
        join(a).only();
        assertEquals(Errors.REBALANCE_IN_PROGRESS, group.checkCommit(a, null, 2, now));
        assertEquals("the member is checked before the state", Errors.UNKNOWN_MEMBER_ID,
            group.checkCommit("stranger", null, 2, now));
        assertEquals(Errors.ILLEGAL_GENERATION, group.checkCommit(a, null, 1, now));
    }

    @Test
    public void aLeavingMemberRebalancesTheRestAndAnEmptyGroupTakesCommitsFromOutsideAnyGroup() {
        String a = stableLeader();
        assertEquals(Errors.NONE, group.leave(a, null, now));
        assertEquals(GroupState.EMPTY, group.state());
        assertEquals(Errors.UNKNOWN_MEMBER_ID, group.leave(a, null, now));
        assertEquals(Errors.NONE, group.checkCommit("", null, -1, now));
        assertEquals("a generation needs a member", Errors.UNKNOWN_MEMBER_ID, group.checkCommit("", null, 5, now));
    }

    @Test
    public void aSyncDuringARebalanceIsToldToRejoinAndAWaitingSyncIsReleased() {
        String a = stableLeader();
        String b = newMemberId();
        join(b);
        JoinGroupResponse aJoined = join(a).only();
        Answer<SyncGroupResponse> bSync = sync(b, aJoined.generationId());
        assertNull(bSync.orNull());
        assertEquals(Errors.NONE, group.leave(a, null, now));
        assertEquals("b's waiting sync is told to rejoin", Errors.REBALANCE_IN_PROGRESS, bSync.only().error());
        assertEquals(Errors.REBALANCE_IN_PROGRESS, sync(b, aJoined.generationId()).only().error());
    }

    @Test
    public void aMemberWithNoCommonProtocolIsRefused() {
        stableLeader();
        JoinGroupResponse refused = join("", "roundrobin").only();
        assertEquals(Errors.INCONSISTENT_GROUP_PROTOCOL, refused.error());
        assertEquals(GroupState.STABLE, group.state());
    }

    @Test
    public void anIdHandedOutButNeverUsedExpiresWithItsSessionTimeout() {
        String a = newMemberId();
        assertNotNull(a);
        now += SESSION_MS + 1;
        group.tick(now);
        assertTrue(group.retireIfIdle());
        assertEquals(GroupState.DEAD, group.state());
        Answer<JoinGroupResponse> answer = new Answer<>();
        assertFalse("a dead group takes no join: the handler joins the group that replaces it",
            group.join(joinRequest(a), "client", "", VERSION, now, answer::accept));
        assertNull(answer.orNull());
    }

    private Answer<JoinGroupResponse> joinStatic(String instanceId, String memberId) {
        return joinStatic(instanceId, memberId, instanceId);
    }

    /** A static join whose protocol metadata is made from {@code metadataSeed}. */
    private Answer<JoinGroupResponse> joinStatic(String instanceId, String memberId, String metadataSeed) {
        Answer<JoinGroupResponse> answer = new Answer<>();
        JoinGroupRequest plain = joinRequest(metadataSeed);
        group.join(new JoinGroupRequest("g", SESSION_MS, REBALANCE_MS, memberId, instanceId, "consumer", plain.protocols(),
            null), "client", "", VERSION, now, answer::accept);
        runTimers();
        return answer;
    }

    @Test
    public void aRestartedStaticMemberTakesItsPlaceBackWithoutARebalanceAndItsOldIdIsFenced() {
        JoinGroupResponse a = joinStatic("instance-a", "").only();
        assertEquals("a static member needs no second join", Errors.NONE, a.error());
        sync(a.memberId(), 1, assign(a.memberId(), "all"));
        Answer<JoinGroupResponse> bJoin = joinStatic("instance-b", "");
        JoinGroupResponse aAgain = joinStatic("instance-a", a.memberId()).only();
        JoinGroupResponse b = bJoin.only();
        assertEquals(2, b.generationId());
        sync(aAgain.memberId(), 2, assign(aAgain.memberId(), "p0"), assign(b.memberId(), "p1"));
        assertEquals("p1", text(sync(b.memberId(), 2).only().assignment()));

        // b restarts: a new member id, the same generation, its old assignment, no rebalance, even
        // though a fresh client's subscription metadata differs
        JoinGroupResponse restarted = joinStatic("instance-b", "", "fresh-client").only();
        assertEquals(Errors.NONE, restarted.error());
        assertEquals(2, restarted.generationId());
        assertTrue(!restarted.memberId().equals(b.memberId()));
        assertEquals(GroupState.STABLE, group.state());
        assertEquals("p1", text(sync(restarted.memberId(), 2).only().assignment()));
        assertEquals(Errors.NONE, group.heartbeat(a.memberId(), "instance-a", 2, now));
        assertEquals(Errors.FENCED_INSTANCE_ID, group.heartbeat(b.memberId(), "instance-b", 2, now));
        assertEquals(Errors.FENCED_INSTANCE_ID, group.checkCommit(b.memberId(), "instance-b", 2, now));
        assertEquals(Errors.FENCED_INSTANCE_ID, joinStatic("instance-b", b.memberId()).only().error());

        // the leader restarts: told to skip assigning, and the group stays as it was
        JoinGroupResponse leader = joinStatic("instance-a", "").only();
        assertEquals(leader.memberId(), leader.leader());
        assertTrue(leader.skipAssignment());
        assertEquals(2, leader.members().size());
        assertEquals("p0", text(sync(leader.memberId(), 2, assign(leader.memberId(), "ignored")).only().assignment()));
        assertEquals(GroupState.STABLE, group.state());

        // a static member leaving by instance id starts a rebalance
        assertEquals(Errors.NONE, group.leave("", "instance-b", now));
        assertEquals(GroupState.PREPARING_REBALANCE, group.state());
    }

    @Test
    public void membersMetadataOutlivesTheRequestBufferItWasParsedFrom() {
        String a = stableLeader();
        String b = newMemberId();
        byte[] network = "b-subscription".getBytes(StandardCharsets.UTF_8);
        JoinGroupRequest join = new JoinGroupRequest("g", SESSION_MS, REBALANCE_MS, b, null, "consumer",
            List.of(new JoinGroupRequest.Protocol("range", ByteBuffer.wrap(network))), null);
        group.join(join, "client", "", VERSION, now, response -> { });
        runTimers();
        java.util.Arrays.fill(network, (byte) 0); // the network buffer is reused for the next request
        JoinGroupResponse leader = join(a).only();
        assertEquals(b, leader.members().get(1).memberId());
        assertEquals("b-subscription", text(leader.members().get(1).metadata()));
    }

    @Test
    public void aNewGroupsFirstRebalanceWaitsForTheInitialDelayExtendedByJoinersUpToTheRebalanceTimeout() {
        ClassicGroup delayed = new ClassicGroup("g",
            new GroupConfig(java.util.Map.of(GroupConfig.GROUP_INITIAL_REBALANCE_DELAY_MS_CONFIG, 3_000)), timer, GroupStore.NONE);
        Answer<JoinGroupResponse> a = new Answer<>();
        delayed.join(joinRequest(""), "client", "", (short) 3, now, a::accept); // no MEMBER_ID_REQUIRED before version 4
        Answer<JoinGroupResponse> b = new Answer<>();
        now += 1_000;
        delayed.join(joinRequest(""), "client", "", (short) 3, now, b::accept);
        runTimers();
        assertNull("held although every member known has joined", a.orNull());
        now = 4_000; // the first delay is over, but b joined during it: it runs once more
        runTimers();
        assertNull(a.orNull());
        now = 7_000;
        runTimers();
        assertEquals(1, a.only().generationId());
        assertEquals(1, b.only().generationId());
        assertEquals(2, a.only().members().size());
    }

    @Test
    public void theInitialDelayNeverRunsPastTheRebalanceTimeout() {
        ClassicGroup delayed = new ClassicGroup("g",
            new GroupConfig(java.util.Map.of(GroupConfig.GROUP_INITIAL_REBALANCE_DELAY_MS_CONFIG, 20_000)), timer, GroupStore.NONE);
        Answer<JoinGroupResponse> a = new Answer<>();
        delayed.join(joinRequest(""), "client", "", (short) 3, now, a::accept);
        now += 19_000;
        Answer<JoinGroupResponse> b = new Answer<>();
        delayed.join(joinRequest(""), "client", "", (short) 3, now, b::accept);
        now = 1_000 + 20_000;
        runTimers();
        assertNull("re-armed for what is left of the rebalance timeout", a.orNull());
        now = 1_000 + REBALANCE_MS;
        delayed.tick(now);
        assertEquals(1, b.only().generationId());
    }

    @Test
    public void theMembersGetTheirAssignmentsOnlyOnceTheGenerationIsStored() {
        Answer<SyncGroupResponse> bSync = new Answer<>();
        String[] ab = twoMembersCompletingWithTheFollowerWaiting(bSync);
        holdStores = true;
        Answer<SyncGroupResponse> aSync = sync(ab[0], 2, assign(ab[0], "p0"), assign(ab[1], "p1"));
        assertNull("not answered before it is stored", aSync.orNull());
        assertNull(bSync.orNull());
        assertEquals(GroupState.COMPLETING_REBALANCE, group.state());

        GroupMetadataRecord generation = stored.get(stored.size() - 1);
        assertEquals(2, generation.generation());
        assertEquals("consumer", generation.protocolType());
        assertEquals("range", generation.protocol());
        assertEquals(ab[0], generation.leader());
        assertEquals(List.of(ab[0], ab[1]), generation.members().stream().map(GroupMetadataRecord.Member::memberId).toList());
        assertEquals("p1", text(generation.members().get(1).assignment()));
        assertEquals(ab[1] + ":range", text(generation.members().get(1).subscription()));
        assertEquals(SESSION_MS, generation.members().get(1).sessionTimeoutMs());
        assertEquals(REBALANCE_MS, generation.members().get(1).rebalanceTimeoutMs());

        heldStores.get(0).complete(null);
        assertEquals("p0", text(aSync.only().assignment()));
        assertEquals("p1", text(bSync.only().assignment()));
        assertEquals(GroupState.STABLE, group.state());
    }

    @Test
    public void aGenerationThatCannotBeStoredIsAnsweredWithTheErrorAndRebalanced() {
        Answer<SyncGroupResponse> bSync = new Answer<>();
        String[] ab = twoMembersCompletingWithTheFollowerWaiting(bSync);
        holdStores = true;
        Answer<SyncGroupResponse> aSync = sync(ab[0], 2, assign(ab[0], "p0"), assign(ab[1], "p1"));
        heldStores.get(0).completeExceptionally(new io.millrace.common.protocol.ApiException(Errors.NOT_ENOUGH_REPLICAS,
            "too few in sync"));
        assertEquals(Errors.COORDINATOR_NOT_AVAILABLE, aSync.only().error());
        assertEquals(Errors.COORDINATOR_NOT_AVAILABLE, bSync.only().error());
        assertEquals(GroupState.PREPARING_REBALANCE, group.state());
        assertEquals(Errors.REBALANCE_IN_PROGRESS, group.heartbeat(ab[1], null, 2, now));
    }

    @Test
    public void aStoredGenerationTakenOverKeepsItsMembersIdsAndAssignmentsUntilTheirSessionsEnd() {
        Answer<SyncGroupResponse> bSync = new Answer<>();
        String[] ab = twoMembersCompletingWithTheFollowerWaiting(bSync);
        sync(ab[0], 2, assign(ab[0], "p0"), assign(ab[1], "p1")).only();
        GroupMetadataRecord generation = GroupMetadataRecord.decode(ByteBuffer.wrap(stored.get(stored.size() - 1).value()));

        ClassicGroup moved = new ClassicGroup("g", new GroupConfig(java.util.Map.of()));
        now += 5_000;
        moved.restore(generation, now);
        assertEquals(GroupState.STABLE, moved.state());
        assertEquals(2, moved.generationId());
        assertEquals(ab[0], moved.leaderId());
        assertEquals(Errors.NONE, moved.heartbeat(ab[0], null, 2, now));
        assertEquals(Errors.NONE, moved.checkCommit(ab[1], null, 2, now));
        assertEquals(Errors.ILLEGAL_GENERATION, moved.checkCommit(ab[1], null, 1, now));
        Answer<SyncGroupResponse> again = new Answer<>();
        moved.sync(new SyncGroupRequest("g", 2, ab[1], null, "consumer", "range", List.of()), now, again::accept);
        assertEquals("p1", text(again.only().assignment()));
        GroupDescription described = moved.describe();
        assertEquals(2, described.members().size());

        // b never reaches the new coordinator: its session, counted from the takeover, ends it
        now += SESSION_MS - 1;
        moved.heartbeat(ab[0], null, 2, now);
        moved.tick(now);
        assertEquals(GroupState.STABLE, moved.state());
        now += 2;
        moved.tick(now);
        assertEquals(List.of(ab[0]), moved.memberIds());
        assertEquals(GroupState.PREPARING_REBALANCE, moved.state());
    }

    @Test
    public void aGroupLeftEmptyStoresThatItHasNoGeneration() {
        String a = stableLeader();
        assertNotNull(stored.get(stored.size() - 1));
        assertEquals(Errors.NONE, group.leave(a, null, now));
        assertEquals(GroupState.EMPTY, group.state());
        assertNull(stored.get(stored.size() - 1));
    }

    @Test
    public void aRestartedStaticMemberIsAnsweredOnceItsNewIdIsStored() {
        JoinGroupResponse a = joinStatic("instance-a", "").only();
        sync(a.memberId(), 1, assign(a.memberId(), "all")).only();
        holdStores = true;
        Answer<JoinGroupResponse> restarted = joinStatic("instance-a", "", "fresh-client");
        assertNull("answered once stored", restarted.orNull());
        GroupMetadataRecord generation = stored.get(stored.size() - 1);
        assertEquals(1, generation.generation());
        assertEquals("instance-a", generation.members().get(0).groupInstanceId());
        assertEquals(generation.leader(), generation.members().get(0).memberId());
        assertEquals("all", text(generation.members().get(0).assignment()));
        heldStores.get(0).complete(null);
        assertEquals(generation.members().get(0).memberId(), restarted.only().memberId());
        assertEquals(Errors.NONE, restarted.only().error());
    }
}
