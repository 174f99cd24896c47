package io.millrace.broker.log;

/**
 * The answer to an offsets-for-time lookup: an offset and the timestamp of the record there
 * ({@code -1} for the earliest and latest lookups, as in Kafka's ListOffsets). Immutable.
 */
public record TimestampAndOffset(long timestamp, long offset) {
}
