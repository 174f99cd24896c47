package io.millrace.broker.log;

/**
 * What an append did: the offsets it assigned, the records it stored and the timestamps a
 * Produce response reports. Immutable.
 *
 * @param firstOffset   offset of the first record appended
 * @param lastOffset    offset of the last record appended
 * @param recordCount   records appended, summed over the batches
 * @param maxTimestamp  largest batch max timestamp after any LogAppendTime stamping
 * @param logAppendTime the broker's stamp when the topic uses LogAppendTime, else -1
 * @param sizeInBytes   bytes appended
 */
public record LogAppendInfo(long firstOffset, long lastOffset, int recordCount, long maxTimestamp, long logAppendTime,
                            int sizeInBytes) {
}
