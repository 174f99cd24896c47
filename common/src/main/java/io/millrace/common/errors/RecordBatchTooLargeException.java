package io.millrace.common.errors;

/**
 * The records of one produce request for a partition are larger than the topic's
 * {@code segment.bytes}, so no segment could hold them; nothing of them is appended. Kafka's
 * RECORD_LIST_TOO_LARGE, which Kafka's producer fails the batch for, where it splits one refused
 * with MESSAGE_TOO_LARGE.
 */
public class RecordBatchTooLargeException extends RecordTooLargeException {

    private static final long serialVersionUID = 1L;

    public RecordBatchTooLargeException(String message) {
        super(message);
    }
}
