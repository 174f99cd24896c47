package io.millrace.producer.internals;

import io.millrace.common.record.RecordBatch;

/**
 * The identity an idempotent producer writes under: the producer id the broker handed out and the
 * epoch, which the producer raises itself to number a partition's batches from 0 again.
 */
public record ProducerIdAndEpoch(long producerId, short epoch) {

    /** No producer id yet (or none any more: InitProducerId must be asked again). */
    public static final ProducerIdAndEpoch NONE = new ProducerIdAndEpoch(RecordBatch.NO_PRODUCER_ID,
        RecordBatch.NO_PRODUCER_EPOCH);

    public boolean isValid() {
        return producerId >= 0;
    }

    @Override
    public String toString() {
        return "producer id " + producerId + " epoch " + epoch;
    }
}
