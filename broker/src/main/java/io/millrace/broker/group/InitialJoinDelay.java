package io.millrace.broker.group;

import java.util.function.LongConsumer;

/**
 * Holds a group's first rebalance from Empty for {@code group.initial.rebalance.delay.ms}, as Kafka
 * does, so members started together land in one generation instead of the first forming one of its
 * own and the others a second. When members join during a delay it runs once more, never past the
 * rebalance timeout counted from the start. Even at 0 the rebalance completes from the timer, after
 * JoinGroups already being handled, not inline in the first one. One per group, under its lock.
 */
final class InitialJoinDelay {

    /** Runs a task on the coordinator's timer after a delay, with the coordinator's clock then. */
    interface Timer {
        void after(long delayMs, LongConsumer atNowMs);

        /** No timer of its own: the coordinator's periodic tick completes the delay. */
        Timer TICK_ONLY = (delayMs, task) -> { };
    }

    private final long delayMs;
    private final Timer timer;
    private final LongConsumer onDue;
    private long deadlineMs = -1;
    private long limitMs;
    private boolean joined;

    InitialJoinDelay(long delayMs, Timer timer, LongConsumer onDue) {
        this.delayMs = delayMs;
        this.timer = timer;
        this.onDue = onDue;
    }

    /** The group leaves Empty: hold its rebalance for the delay, at most {@code rebalanceTimeoutMs} in all. */
    void start(long nowMs, long rebalanceTimeoutMs) {
        limitMs = nowMs + Math.max(rebalanceTimeoutMs, delayMs);
        joined = false;
        arm(nowMs, delayMs);
    }

    /** A new member joined the group. */
    void memberJoined() {
        joined = deadlineMs >= 0;
    }

    /**
     * Whether the rebalance is still held at {@code nowMs}: always when asked inline, from a JoinGroup,
     * and from the timer until the deadline. At a deadline with new members the delay runs again.
     */
    boolean holds(long nowMs, boolean fromTimer) {
        if (deadlineMs < 0) {
            return false;
        }
        if (!fromTimer || nowMs < deadlineMs) {
            return true;
        }
        if (joined && nowMs < limitMs) {
            joined = false;
            arm(nowMs, Math.min(delayMs, limitMs - nowMs));
            return true;
        }
        deadlineMs = -1;
        return false;
    }

    /** The group was unloaded or emptied: nothing is held. */
    void cancel() {
        deadlineMs = -1;
    }

    private void arm(long nowMs, long forMs) {
        deadlineMs = nowMs + forMs;
        // a millisecond more, so the clock the task reads has passed the deadline
        timer.after(forMs + 1, onDue);
    }
}
