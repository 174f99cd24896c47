package io.millrace.broker.txn;

import io.millrace.common.TopicPartition;

/**
 * Told of each transaction marker this broker appends as a partition's leader: the group
 * coordinator settles the offsets a transaction committed to {@code __consumer_offsets} this way.
 */
@FunctionalInterface
public interface TransactionMarkerListener {

    /** The marker of {@code producerId}'s transaction, committed or aborted, is in {@code partition}. */
    void onMarker(TopicPartition partition, long producerId, boolean commit);
}
