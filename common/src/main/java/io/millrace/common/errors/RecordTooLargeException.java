package io.millrace.common.errors;

/** A batch larger than the topic's {@code max.message.bytes}; nothing of it is appended. */
public class RecordTooLargeException extends InvalidRecordException {

    private static final long serialVersionUID = 1L;

    public RecordTooLargeException(String message) {
        super(message);
    }
}
