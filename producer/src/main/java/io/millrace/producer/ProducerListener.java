package io.millrace.producer;

/**
 * Told what became of every record a {@link MillraceProducer} sends one by one, a batch at a time: for
 * whoever counts what was sent (the audit's producer tier) without a callback per record, which costs an
 * object and a call per record on the network thread. Runs on the network thread, after the records'
 * own callbacks and before their batch counts as complete for {@link Producer#flush}: a count made here
 * is in place when a flush returns. It must be quick and must not block.
 */
public interface ProducerListener {

    /** A batch was acknowledged or failed for good. */
    void onCompletion(CompletedBatch batch);

    /**
     * A record failed before it joined a batch (its topic's metadata did not come in time, no memory for
     * it in time, a partition that does not exist): it is in no batch this listener will see.
     *
     * @param timestamp the record's own timestamp, or the time of the send when it had none
     */
    void onRejection(String topic, long timestamp, Exception error);
}
