package io.millrace.hadoop.input;

/**
 * The loader's job counters (group {@code io.millrace.hadoop.input.LoaderCounter}). Counts of failed
 * task attempts are not in a job's totals, so these count what the successful attempts did.
 */
public enum LoaderCounter {
    /** Messages read from the brokers. */
    MESSAGES_READ,
    /** Messages whose value could not be decoded; each went to the error output. */
    UNDECODABLE_MESSAGES,
    /** Offsets retention deleted before any load read them (the lost ranges). */
    LOST_OFFSETS,
    /** Events the load job wrote into Avro files. */
    EVENTS_WRITTEN,
    /** Avro files the load job wrote (one per topic, event hour and writer schema of a task). */
    FILES_WRITTEN
}
