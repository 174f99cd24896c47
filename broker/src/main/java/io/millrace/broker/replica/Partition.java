package io.millrace.broker.replica;

import io.millrace.broker.cluster.PartitionState;
import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.Errors;
import io.millrace.common.utils.Time;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One local replica of a partition, leader or follower, and for a leader the replication state:
 * each follower's log end offset and last caught-up time, the in-sync replicas (ISR) and the high
 * watermark (HW), the offset below which every ISR member has the log. The HW never moves
 * backwards while this broker leads.
 *
 * <p>The ISR changes only through ZooKeeper: the partition proposes a change ({@link IsrChange}),
 * someone writes it with a conditional update at the znode version the partition last saw, and
 * reports back with {@link #isrWritten} or {@link #isrWriteFailed}. One change is in flight at a
 * time. While it is, the HW is computed over the union of the old and the proposed ISR (Kafka's
 * "maximal ISR"): a follower being dropped still holds the HW back until ZooKeeper says it is out,
 * so the HW never passes what the ISR recorded in ZooKeeper holds.
 *
 * <p>This class holds state and decides; it does no I/O. Log end offsets are passed in by the
 * caller, who reads them from the log. Thread-safe: every method synchronizes on the instance.
 */
public final class Partition {

    /** The replica's role under the leadership this broker last applied. */
    public enum Role { NONE, LEADER, FOLLOWER }

    /** A proposed ISR, to be written at {@code zkVersion}; {@code state} is the whole znode content to write. */
    public record IsrChange(TopicPartition topicPartition, PartitionState state, int expectedZkVersion) {
    }

    private final TopicPartition topicPartition;
    private final int localBrokerId;
    private final Time time;
    private final long lagTimeMaxMs;

    private Role role = Role.NONE;
    private PartitionState leadership;
    private long leaderEpochStartOffset;
    private final Map<Integer, FollowerState> followers = new HashMap<>();
    private IsrChange pendingIsr;
    private long highWatermark;

    public Partition(TopicPartition topicPartition, int localBrokerId, Time time, long lagTimeMaxMs) {
        this.topicPartition = topicPartition;
        this.localBrokerId = localBrokerId;
        this.time = time;
        this.lagTimeMaxMs = lagTimeMaxMs;
    }

    public TopicPartition topicPartition() {
        return topicPartition;
    }

    /**
     * Applies a leadership naming this broker leader. A new epoch resets every follower's state (an
     * ISR member gets the full lag time to fetch from this leader) and drops a pending ISR change;
     * the same epoch with a newer znode version only takes the newer ISR. Returns whether the epoch
     * is new, when the caller must mark {@code logEndOffset} as the epoch's start in the log.
     *
     * @param highWatermark the log's HW; the partition's never goes below it, nor above {@code logEndOffset}
     */
    public synchronized boolean makeLeader(PartitionState state, long logEndOffset, long highWatermark) {
        checkLeader(state.leader() == localBrokerId, state);
        boolean newEpoch = role != Role.LEADER || leadership.leaderEpoch() != state.leaderEpoch();
        if (!newEpoch) {
            takeNewerIsr(state);
            return false;
        }
        role = Role.LEADER;
        leadership = state;
        leaderEpochStartOffset = logEndOffset;
        pendingIsr = null;
        followers.clear();
        long now = time.milliseconds();
        for (int replica : state.replicas()) {
            if (replica != localBrokerId) {
                followers.put(replica, new FollowerState(now));
            }
        }
        this.highWatermark = Math.min(Math.max(this.highWatermark, highWatermark), logEndOffset);
        maybeIncrementHighWatermark(logEndOffset);
        return true;
    }

    /** Applies a leadership naming another broker (or none); returns whether the leader or its epoch changed. */
    public synchronized boolean makeFollower(PartitionState state) {
        checkLeader(state.leader() != localBrokerId, state);
        boolean changed = role != Role.FOLLOWER || leadership.leader() != state.leader()
            || leadership.leaderEpoch() != state.leaderEpoch();
        role = Role.FOLLOWER;
        leadership = state;
        pendingIsr = null;
        followers.clear();
        return changed;
    }

    /** The replica is no longer managed here (its topic deleted, or one replica left): it leads nothing. */
    public synchronized void resign() {
        role = Role.NONE;
        pendingIsr = null;
        followers.clear();
    }

    private void checkLeader(boolean expected, PartitionState state) {
        if (!expected) {
            throw new IllegalArgumentException(topicPartition + ": broker " + localBrokerId + " got the wrong role for "
                + state);
        }
    }

    private void takeNewerIsr(PartitionState state) {
        if (state.zkVersion() > leadership.zkVersion()) {
            leadership = state;
            if (pendingIsr != null && pendingIsr.expectedZkVersion() < state.zkVersion()) {
                pendingIsr = null;
            }
        }
    }

    /**
     * Records a follower's fetch at {@code fetchOffset} (its log end offset) while the leader's log
     * ends at {@code leaderLogEndOffset}. Returns the ISR expansion to write, if the follower has
     * caught up to the HW (and to the start of this leader's epoch) outside the ISR.
     */
    public synchronized Optional<IsrChange> recordFollowerFetch(int replicaId, long fetchOffset, long leaderLogEndOffset) {
        FollowerState follower = followers.get(replicaId);
        if (role != Role.LEADER || follower == null) {
            return Optional.empty();
        }
        follower.onFetch(fetchOffset, leaderLogEndOffset, time.milliseconds());
        maybeIncrementHighWatermark(leaderLogEndOffset);
        return maybeExpandIsr(replicaId, follower);
    }

    private Optional<IsrChange> maybeExpandIsr(int replicaId, FollowerState follower) {
        if (pendingIsr != null || leadership.isr().contains(replicaId)) {
            return Optional.empty();
        }
        long leo = follower.logEndOffset();
        if (leo < highWatermark || leo < leaderEpochStartOffset) {
            return Optional.empty();
        }
        List<Integer> expanded = new ArrayList<>(leadership.isr());
        expanded.add(replicaId);
        return Optional.of(propose(expanded));
    }

    /**
     * The ISR without the followers that have not caught up within {@code replica.lag.time.max.ms},
     * if any has not; empty when nothing is to change or a change is already in flight.
     */
    public synchronized Optional<IsrChange> maybeShrinkIsr(long leaderLogEndOffset) {
        if (role != Role.LEADER || pendingIsr != null) {
            return Optional.empty();
        }
        long now = time.milliseconds();
        List<Integer> kept = new ArrayList<>();
        for (int member : leadership.isr()) {
            FollowerState follower = followers.get(member);
            if (member == localBrokerId || follower == null || !follower.isLagging(leaderLogEndOffset, now, lagTimeMaxMs)) {
                kept.add(member);
            }
        }
        return kept.size() == leadership.isr().size() ? Optional.empty() : Optional.of(propose(kept));
    }

    private IsrChange propose(List<Integer> newIsr) {
        PartitionState proposed = withIsr(leadership, newIsr, leadership.zkVersion() + 1);
        pendingIsr = new IsrChange(topicPartition, proposed, leadership.zkVersion());
        return pendingIsr;
    }

    private static PartitionState withIsr(PartitionState state, List<Integer> isr, int zkVersion) {
        return new PartitionState(state.replicas(), state.leader(), state.leaderEpoch(), isr, zkVersion);
    }

    /**
     * The proposed ISR is in ZooKeeper at {@code newZkVersion}. Returns whether this partition took it
     * (false if leadership moved meanwhile). The HW may advance: a dropped follower no longer holds it back.
     */
    public synchronized boolean isrWritten(IsrChange change, int newZkVersion, long leaderLogEndOffset) {
        if (pendingIsr != change) {
            return false;
        }
        pendingIsr = null;
        leadership = withIsr(change.state(), change.state().isr(), newZkVersion);
        maybeIncrementHighWatermark(leaderLogEndOffset);
        return true;
    }

    /** The write failed (the znode changed, or ZooKeeper is unreachable): the change may be proposed again. */
    public synchronized void isrWriteFailed(IsrChange change) {
        if (pendingIsr == change) {
            pendingIsr = null;
        }
    }

    /** After an append as leader: with an ISR of the leader alone the HW follows the log end offset. */
    public synchronized boolean onLeaderAppend(long leaderLogEndOffset) {
        return role == Role.LEADER && maybeIncrementHighWatermark(leaderLogEndOffset);
    }

    /** Sets the HW to the least log end offset over the ISR (maximal while a change is in flight), if that is higher. */
    private boolean maybeIncrementHighWatermark(long leaderLogEndOffset) {
        long newHw = leaderLogEndOffset;
        for (int member : maximalIsr()) {
            FollowerState follower = followers.get(member);
            if (member != localBrokerId) {
                newHw = Math.min(newHw, follower == null ? -1L : follower.logEndOffset());
            }
        }
        if (newHw > highWatermark) {
            highWatermark = newHw;
            return true;
        }
        return false;
    }

    private Set<Integer> maximalIsr() {
        Set<Integer> members = new LinkedHashSet<>(leadership.isr());
        if (pendingIsr != null) {
            members.addAll(pendingIsr.state().isr());
        }
        return members;
    }

    /** A follower's HW: the leader's, but never above what this replica has. */
    public synchronized void updateFollowerHighWatermark(long leaderHighWatermark, long logEndOffset) {
        highWatermark = Math.min(leaderHighWatermark, logEndOffset);
    }

    /** The follower's log was truncated to {@code offset}: its HW may not stay above it. */
    public synchronized void onTruncation(long offset) {
        highWatermark = Math.min(highWatermark, offset);
    }

    /**
     * Whether an append may go ahead under {@code minInsyncReplicas}: NOT_ENOUGH_REPLICAS when the
     * ISR is smaller (nothing is appended then), NOT_LEADER_OR_FOLLOWER when this broker does not lead.
     */
    public synchronized Errors checkAppend(int minInsyncReplicas) {
        if (role != Role.LEADER) {
            return Errors.NOT_LEADER_OR_FOLLOWER;
        }
        return leadership.isr().size() < minInsyncReplicas ? Errors.NOT_ENOUGH_REPLICAS : Errors.NONE;
    }

    /**
     * What an acks=all produce waiting for its batch to end at {@code requiredOffset} (its last offset
     * plus one) should answer now: empty while it must wait, NONE once the HW has reached it,
     * NOT_ENOUGH_REPLICAS_AFTER_APPEND if it did with the ISR shrunk below {@code minInsyncReplicas}
     * meanwhile, NOT_LEADER_OR_FOLLOWER if leadership moved (its epoch is no longer {@code leaderEpoch}).
     */
    public synchronized Optional<Errors> ackStatus(int leaderEpoch, long requiredOffset, int minInsyncReplicas) {
        if (role != Role.LEADER || leadership.leaderEpoch() != leaderEpoch) {
            return Optional.of(Errors.NOT_LEADER_OR_FOLLOWER);
        }
        if (highWatermark < requiredOffset) {
            return Optional.empty();
        }
        return Optional.of(leadership.isr().size() < minInsyncReplicas ? Errors.NOT_ENOUGH_REPLICAS_AFTER_APPEND
            : Errors.NONE);
    }

    public synchronized long highWatermark() {
        return highWatermark;
    }

    public synchronized Role role() {
        return role;
    }

    public synchronized boolean isLeader() {
        return role == Role.LEADER;
    }

    /** The leader epoch last applied; -1 before any. */
    public synchronized int leaderEpoch() {
        return leadership == null ? -1 : leadership.leaderEpoch();
    }

    /** The leader last applied; -1 before any, or when the partition is offline. */
    public synchronized int leaderId() {
        return leadership == null ? -1 : leadership.leader();
    }

    /** The ISR as last written to (or read from) ZooKeeper. */
    public synchronized List<Integer> isr() {
        return leadership == null ? List.of() : leadership.isr();
    }

    public synchronized List<Integer> replicas() {
        return leadership == null ? List.of() : leadership.replicas();
    }

    /** The first offset of this leader's epoch in the log. */
    public synchronized long leaderEpochStartOffset() {
        return leaderEpochStartOffset;
    }

    /** A follower's log end offset as the leader last saw it; -1 if unknown. */
    public synchronized long followerLogEndOffset(int replicaId) {
        FollowerState follower = followers.get(replicaId);
        return follower == null ? -1L : follower.logEndOffset();
    }

    @Override
    public synchronized String toString() {
        return "Partition(" + topicPartition + ", " + role + ", " + leadership + ", hw=" + highWatermark + ")";
    }
}
