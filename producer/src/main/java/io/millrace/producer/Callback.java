package io.millrace.producer;

/**
 * Told once whether a record was sent. Callbacks run on the producer's network thread, one after
 * another, in the order of the records within a partition: they should be quick, and must not
 * block on another send's future (that send may be waiting for this very thread).
 */
@FunctionalInterface
public interface Callback {

    /**
     * @param metadata  where the record was written; on failure, its partition with offset -1
     * @param exception null on success, else why the record was not sent
     */
    void onCompletion(RecordMetadata metadata, Exception exception);
}
