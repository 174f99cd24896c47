package io.millrace.producer;

import io.millrace.common.TopicPartition;

/**
 * A batch of records to one partition as the producer finished with it: acknowledged by the broker, or
 * failed for good. It shows the records that were handed to {@link Producer#send} one by one, by their
 * place in the batch; records handed in as whole batches ({@link MillraceProducer#sendRecordBatch}) are
 * not among them. The totals let a listener take the common case, a batch whose records are alike, at once.
 * Valid only during {@link ProducerListener#onCompletion}.
 */
public interface CompletedBatch {

    TopicPartition topicPartition();

    /** Null when the broker acknowledged the batch; else why its records were not sent. */
    RuntimeException error();

    /** How many records sent one by one the batch holds: the range of the indexes below. */
    int sentRecords();

    /** The timestamp record {@code i} was stored with: its create time, or the broker's append time. */
    long timestamp(int i);

    /** The earliest of the {@link #timestamp}s of the records sent one by one; meaningless when there are none. */
    long minTimestamp();

    /** The latest of the {@link #timestamp}s of the records sent one by one; meaningless when there are none. */
    long maxTimestamp();

    /** The serialized key and value bytes of the records sent one by one, together (a missing one counts 0). */
    long sentBytes();

    /** The size of record {@code i}'s serialized key, -1 for none. */
    int serializedKeySize(int i);

    /** The size of record {@code i}'s serialized value, -1 for none. */
    int serializedValueSize(int i);
}
