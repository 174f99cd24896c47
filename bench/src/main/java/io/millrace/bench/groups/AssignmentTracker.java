package io.millrace.bench.groups;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What every member of a group owns, as its rebalance listener reports it, and when the group first
 * reached a complete assignment: the expected number of members, each owning something, no
 * partition owned twice and every partition owned. Eager and cooperative rebalances both end there:
 * a partition moves only after its old owner revoked it. Thread-safe: each member calls in from its
 * own polling thread.
 *
 * @param <P> a partition
 */
final class AssignmentTracker<P> {

    private final Set<P> partitions;
    private final Map<String, Set<P>> owned = new HashMap<>();
    private int expectedMembers;
    /** System.nanoTime() may be negative, so no value of it can mean "not yet". */
    private boolean completed;
    private long completedAtNanos;

    AssignmentTracker(Collection<P> partitions, int expectedMembers) {
        this.partitions = Set.copyOf(partitions);
        this.expectedMembers = expectedMembers;
    }

    /** Counts {@code member}, owning nothing yet: a member that joined but was given nothing keeps the group incomplete. */
    synchronized void member(String member) {
        owned.computeIfAbsent(member, m -> new HashSet<>());
    }

    synchronized void assigned(String member, Collection<P> added, long nowNanos) {
        owned.computeIfAbsent(member, m -> new HashSet<>()).addAll(added);
        check(nowNanos);
    }

    synchronized void revoked(String member, Collection<P> removed, long nowNanos) {
        owned.computeIfAbsent(member, m -> new HashSet<>()).removeAll(removed);
        check(nowNanos);
    }

    /** From now on the group is complete only with {@code members} members; forgets when it last was. */
    synchronized void expect(int members, long nowNanos) {
        expectedMembers = members;
        completed = false;
        check(nowNanos);
    }

    synchronized boolean complete() {
        if (owned.size() != expectedMembers) {
            return false;
        }
        Set<P> seen = new HashSet<>();
        for (Set<P> mine : owned.values()) {
            if (mine.isEmpty()) {
                return false;
            }
            for (P p : mine) {
                if (!seen.add(p)) {
                    return false;
                }
            }
        }
        return seen.equals(partitions);
    }

    /** When the group first became complete since the last {@link #expect}; IllegalStateException if it has not. */
    synchronized long completedAtNanos() {
        if (!completed) {
            throw new IllegalStateException("not complete with " + expectedMembers + " members: " + owned);
        }
        return completedAtNanos;
    }

    /** Waits until the group is complete; false after {@code timeoutMs}. */
    synchronized boolean await(long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        while (!completed) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                return false;
            }
            wait(left);
        }
        return true;
    }

    private void check(long nowNanos) {
        if (!completed && complete()) {
            completed = true;
            completedAtNanos = nowNanos;
            notifyAll();
        }
    }
}
