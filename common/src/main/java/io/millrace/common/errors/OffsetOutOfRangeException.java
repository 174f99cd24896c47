package io.millrace.common.errors;

/**
 * A fetch or lookup asked for an offset the partition does not hold: below the log start offset
 * (deleted by retention) or beyond the log end offset. On the wire this is OFFSET_OUT_OF_RANGE;
 * a consumer answers it by resetting its position to the earliest or latest offset.
 */
public class OffsetOutOfRangeException extends MillraceException {

    private static final long serialVersionUID = 1L;

    public OffsetOutOfRangeException(String message) {
        super(message);
    }
}
