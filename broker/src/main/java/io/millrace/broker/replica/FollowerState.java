package io.millrace.broker.replica;

/**
 * What a leader knows of one follower: its log end offset (the offset of its last fetch) and the
 * last time it was caught up, as Kafka tracks it. A follower is caught up at a fetch that asks for
 * the leader's log end offset; one that asks for at least the log end offset the leader had at its
 * previous fetch was caught up at that previous fetch. So a follower that keeps fetching all that
 * arrives stays caught up under steady load, though it is always one fetch behind. Not thread-safe:
 * guarded by its {@link Partition}.
 */
final class FollowerState {

    /** The follower's log end offset; -1 until its first fetch under the current leadership. */
    private long logEndOffset = -1L;
    private long lastCaughtUpTimeMs;
    private long lastFetchLeaderLogEndOffset = -1L;
    private long lastFetchTimeMs;

    /** A follower starts as caught up now: an in-sync follower gets the full lag time to fetch from a new leader. */
    FollowerState(long nowMs) {
        this.lastCaughtUpTimeMs = nowMs;
        this.lastFetchTimeMs = nowMs;
    }

    void onFetch(long fetchOffset, long leaderLogEndOffset, long nowMs) {
        if (fetchOffset >= leaderLogEndOffset) {
            lastCaughtUpTimeMs = Math.max(lastCaughtUpTimeMs, nowMs);
        } else if (lastFetchLeaderLogEndOffset >= 0 && fetchOffset >= lastFetchLeaderLogEndOffset) {
            lastCaughtUpTimeMs = Math.max(lastCaughtUpTimeMs, lastFetchTimeMs);
        }
        logEndOffset = fetchOffset;
        lastFetchLeaderLogEndOffset = leaderLogEndOffset;
        lastFetchTimeMs = nowMs;
    }

    long logEndOffset() {
        return logEndOffset;
    }

    long lastCaughtUpTimeMs() {
        return lastCaughtUpTimeMs;
    }

    /** Whether the follower is out of sync: behind the leader and not caught up within {@code lagTimeMaxMs}. */
    boolean isLagging(long leaderLogEndOffset, long nowMs, long lagTimeMaxMs) {
        return logEndOffset != leaderLogEndOffset && nowMs - lastCaughtUpTimeMs > lagTimeMaxMs;
    }

    @Override
    public String toString() {
        return "FollowerState(leo=" + logEndOffset + ", lastCaughtUp=" + lastCaughtUpTimeMs + ")";
    }
}
