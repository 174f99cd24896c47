package io.millrace.broker.log;

/**
 * Where a log ends, as readers bound themselves by it: the next offset, the active segment and the
 * byte position after the last whole batch in it. {@link Log} publishes a new one in one volatile
 * write after each append, so a reader that took one never sees a half-written batch.
 */
record LogEnd(long offset, LogSegment segment, int position) {

    /** How far a reader may read in {@code segment}: to this end in the active segment, the whole of any other. */
    int maxPosition(LogSegment segment) {
        return segment == this.segment ? position : segment.size();
    }
}
