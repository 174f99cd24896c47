package io.millrace.broker.log;

import io.millrace.common.TopicPartition;
import io.millrace.common.errors.MillraceException;

/**
 * A follower's append does not continue its log: the first replicated batch starts elsewhere than
 * at the log end offset, so the follower's fetch position and its log disagree (Kafka's exception
 * of the same name). Nothing was appended; the follower should fetch again from its log end offset.
 */
public class UnexpectedAppendOffsetException extends MillraceException {

    private static final long serialVersionUID = 1L;

    private final long logEndOffset;
    private final long firstOffset;

    public UnexpectedAppendOffsetException(TopicPartition partition, long logEndOffset, long firstOffset) {
        super("Replicated batches for " + partition + " start at offset " + firstOffset + " but the log ends at "
            + logEndOffset + "; a follower's append must continue its log");
        this.logEndOffset = logEndOffset;
        this.firstOffset = firstOffset;
    }

    /** Where the log ends, so where the appended batches should have started. */
    public long logEndOffset() {
        return logEndOffset;
    }

    /** Where the appended batches started. */
    public long firstOffset() {
        return firstOffset;
    }
}
