package io.millrace.producer.internals;

import io.millrace.common.record.RecordBatch;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * An idempotent producer's numbering of one partition: the producer id and epoch its batches carry,
 * the sequence the next batch gets, the last sequence and offset the broker acknowledged, and the
 * batches numbered but not yet complete (in flight, or queued again for a retry), lowest sequence
 * first. Confined to the producer's I/O thread, as {@link IdempotenceManager} is.
 */
final class PartitionSequences {

    static final int NO_LAST_ACKED_SEQUENCE = -1;

    private final TreeSet<ProducerBatch> incomplete = new TreeSet<>(Comparator.comparingInt(ProducerBatch::baseSequence));
    private ProducerIdAndEpoch idAndEpoch;
    private int nextSequence;
    private int lastAckedSequence = NO_LAST_ACKED_SEQUENCE;
    private long lastAckedOffset = -1L;

    PartitionSequences(ProducerIdAndEpoch idAndEpoch) {
        this.idAndEpoch = idAndEpoch;
    }

    ProducerIdAndEpoch idAndEpoch() {
        return idAndEpoch;
    }

    /** Gives the batch the next sequences, one per record, and counts it as incomplete. */
    void number(ProducerBatch batch) {
        batch.setProducerState(idAndEpoch, nextSequence);
        nextSequence = RecordBatch.incrementSequence(nextSequence, batch.recordCount());
        incomplete.add(batch);
    }

    /** The broker appended the batch (or had it already). */
    void acknowledged(ProducerBatch batch, long baseOffset) {
        lastAckedSequence = Math.max(lastAckedSequence, batch.lastSequence());
        if (baseOffset >= 0) {
            lastAckedOffset = Math.max(lastAckedOffset, baseOffset + batch.recordCount() - 1);
        }
        remove(batch);
    }

    /**
     * Stops counting the batch as incomplete. A batch numbered under an earlier state of this
     * partition may share its sequence with one of now: only the batch itself is removed.
     */
    void remove(ProducerBatch batch) {
        if (incomplete.floor(batch) == batch) {
            incomplete.remove(batch);
        }
    }

    /**
     * Numbers every incomplete batch again from 0, in their order, under {@code newIdAndEpoch}: a new
     * epoch starts at sequence 0 on the broker. Their headers change when they are next drained.
     */
    void startAtBeginning(ProducerIdAndEpoch newIdAndEpoch) {
        List<ProducerBatch> batches = new ArrayList<>(incomplete);
        incomplete.clear();
        int sequence = 0;
        for (ProducerBatch batch : batches) {
            batch.resetProducerState(newIdAndEpoch, sequence);
            sequence = RecordBatch.incrementSequence(sequence, batch.recordCount());
            incomplete.add(batch);
        }
        idAndEpoch = newIdAndEpoch;
        nextSequence = sequence;
        lastAckedSequence = NO_LAST_ACKED_SEQUENCE;
    }

    boolean hasIncomplete() {
        return !incomplete.isEmpty();
    }

    /** The lowest sequence of an incomplete batch, or {@link RecordBatch#NO_SEQUENCE}. */
    int firstIncompleteSequence() {
        return incomplete.isEmpty() ? RecordBatch.NO_SEQUENCE : incomplete.first().baseSequence();
    }

    /** Whether {@code sequence} directly follows the last one acknowledged. */
    boolean isNext(int sequence) {
        return sequence - lastAckedSequence == 1;
    }

    int nextSequence() {
        return nextSequence;
    }

    int lastAckedSequence() {
        return lastAckedSequence;
    }

    long lastAckedOffset() {
        return lastAckedOffset;
    }
}
