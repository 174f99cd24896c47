package io.millrace.common.record;

/**
 * Whose clock a batch's timestamps come from: the producer's ({@code CreateTime}, attribute bit
 * 3 clear) or the broker's at append ({@code LogAppendTime}, bit 3 set; then every record's
 * timestamp is the batch's max timestamp).
 */
public enum TimestampType {
    CREATE_TIME("CreateTime"),
    LOG_APPEND_TIME("LogAppendTime");

    public final String displayName;

    TimestampType(String displayName) {
        this.displayName = displayName;
    }

    /** The value of {@code message.timestamp.type} that selects this type. */
    public static TimestampType forName(String name) {
        for (TimestampType type : values()) {
            if (type.displayName.equals(name)) {
                return type;
            }
        }
        throw new IllegalArgumentException("Unknown timestamp type " + name);
    }
}
