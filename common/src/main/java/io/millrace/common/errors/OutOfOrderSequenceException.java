package io.millrace.common.errors;

/**
 * An idempotent producer's batch whose first sequence number does not follow the last one the
 * partition holds from that producer and epoch (a gap, or an old batch no longer remembered), or
 * a new epoch that does not start at sequence 0. The broker answers OUT_OF_ORDER_SEQUENCE_NUMBER and
 * appends nothing of the request's records for the partition.
 */
public class OutOfOrderSequenceException extends MillraceException {

    private static final long serialVersionUID = 1L;

    public OutOfOrderSequenceException(String message) {
        super(message);
    }
}
