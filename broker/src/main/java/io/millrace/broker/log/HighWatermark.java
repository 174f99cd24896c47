package io.millrace.broker.log;

/**
 * A log's high watermark: the offset below which every in-sync replica holds the records, so the
 * records a consumer may see. Until a replica manager takes it over ({@link #followEnd(boolean)}
 * with false), the high watermark follows the log end offset on every append, as for a
 * partition without followers; afterwards it moves only when told ({@link #update}).
 *
 * <p>Reads are always kept within [log start offset, log end offset], whatever was stored. The
 * stored value is what the log directory's {@code replication-offset-checkpoint} records; it
 * tracks the end while following it, and otherwise stays where the replica manager put it, so a
 * restart restores the last replicated position rather than the end of unreplicated records.
 *
 * <p>Thread-safety: volatile fields; the owning {@link Log} calls {@link #appended} and
 * {@link #truncated} under its append lock, anyone may call the rest.
 */
final class HighWatermark {

    private volatile long stored;
    private volatile boolean followsEnd = true;

    /** At load: the checkpointed value, or the end when the checkpoint had none. */
    void restore(long checkpointed, long logEnd) {
        stored = Math.min(checkpointed, logEnd);
    }

    void followEnd(boolean follow) {
        followsEnd = follow;
    }

    boolean followsEnd() {
        return followsEnd;
    }

    /** The high watermark of a log with these bounds. */
    long get(long logStart, long logEnd) {
        return clamp(followsEnd ? logEnd : stored, logStart, logEnd);
    }

    /** What to checkpoint: the stored value within the bounds. */
    long checkpointValue(long logStart, long logEnd) {
        return clamp(stored, logStart, logEnd);
    }

    long update(long offset, long logStart, long logEnd) {
        long value = clamp(offset, logStart, logEnd);
        stored = value;
        return value;
    }

    /** An append moved the end. */
    void appended(long logEnd) {
        if (followsEnd) {
            stored = logEnd;
        }
    }

    /** A truncation moved the end back: the high watermark cannot stay above it. */
    void truncated(long logEnd) {
        stored = Math.min(stored, logEnd);
    }

    /** The log was emptied and starts afresh at {@code offset}. */
    void reset(long offset) {
        stored = offset;
    }

    private static long clamp(long value, long low, long high) {
        return Math.max(low, Math.min(value, high));
    }
}
