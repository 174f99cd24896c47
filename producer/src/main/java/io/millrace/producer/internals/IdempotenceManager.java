package io.millrace.producer.internals;

import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.Errors;
import io.millrace.common.record.RecordBatch;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What makes the producer idempotent: the producer id and epoch it writes under, and each partition's
 * numbering ({@link PartitionSequences}). A batch gets its sequence when it is first drained and keeps
 * it across retries, so the broker can tell a batch sent again from a new one. The rules are those of
 * Kafka's idempotent producer:
 * <ul>
 *   <li>A batch sent again goes only when it is the partition's lowest incomplete sequence: whatever
 *       failed before it goes first, so the broker never sees a gap of this producer's own making.</li>
 *   <li>OUT_OF_ORDER_SEQUENCE_NUMBER for a batch that is not the next one after the last acknowledged
 *       (a batch before it failed too) is retried as it is. For the next one it means the broker lost
 *       records it had acknowledged (an unclean leader election): the producer raises its epoch, which
 *       numbers the partition's incomplete batches from 0 again, and retries.</li>
 *   <li>UNKNOWN_PRODUCER_ID (the broker removed this producer's state, its records having been deleted)
 *       likewise raises the epoch and retries.</li>
 *   <li>A batch that fails for good after it may have been numbered into the broker's sequence raises
 *       the epoch, so that the batches after it do not all fail for the gap it leaves.</li>
 *   <li>A batch that expires after being sent leaves the partition's sequence unresolved: no new batch
 *       goes there until every earlier one is complete; if the sequence then has a hole, the epoch is raised.</li>
 * </ul>
 * The epoch is raised here, without asking the broker (a new epoch starting at sequence 0 is what the
 * broker expects); only when it would pass {@link Short#MAX_VALUE} is a new producer id asked for.
 *
 * <p>Confined to the producer's I/O thread, where the sender runs and drains the accumulator: not thread-safe.
 */
final class IdempotenceManager {

    private static final Logger log = LoggerFactory.getLogger(IdempotenceManager.class);

    /** Kafka's answer to a batch older than the five a broker remembers: appended already, offset unknown. */
    static final short DUPLICATE_SEQUENCE_NUMBER = 46;
    /** Kafka's answer when the broker holds no state for the producer id in the partition. */
    static final short UNKNOWN_PRODUCER_ID = 59;
    /** Kafka's answer when another producer took over the producer id with a newer epoch. */
    static final short PRODUCER_FENCED = 90;

    private final Map<TopicPartition, PartitionSequences> partitions = new HashMap<>();
    /** Partitions with a batch that expired after being sent, with the sequence that would follow it. */
    private final Map<TopicPartition, Integer> unresolved = new HashMap<>();
    private final Set<TopicPartition> toRenumber = new HashSet<>();
    private ProducerIdAndEpoch current = ProducerIdAndEpoch.NONE;
    private boolean epochBumpRequired;
    private RuntimeException fatalError;

    ProducerIdAndEpoch producerIdAndEpoch() {
        return current;
    }

    boolean hasProducerId() {
        return current.isValid();
    }

    /**
     * The broker handed out a producer id. Partitions still holding batches numbered under none (the
     * epoch ran out while they were incomplete) start at 0 under it.
     */
    void setProducerIdAndEpoch(ProducerIdAndEpoch idAndEpoch) {
        log.info("Idempotent producer writes as {}", idAndEpoch);
        current = idAndEpoch;
        for (PartitionSequences partition : partitions.values()) {
            if (partition.hasIncomplete() && !partition.idAndEpoch().isValid()) {
                partition.startAtBeginning(idAndEpoch);
            }
        }
    }

    /** Refuses everything from now on: the producer id was fenced or cannot be had. */
    void fail(RuntimeException error) {
        if (fatalError == null) {
            log.error("Idempotent producer stops: {}", error.getMessage());
            fatalError = error;
        }
    }

    RuntimeException fatalError() {
        return fatalError;
    }

    /**
     * Whether {@code first}, the head of its partition's queue, may be drained now: there is a producer
     * id; a new batch waits while batches numbered under an older epoch are incomplete, or while the
     * partition's sequence is unresolved; a batch sent before waits until it is the lowest incomplete one.
     */
    boolean mayDrain(ProducerBatch first) {
        if (!current.isValid()) {
            return false;
        }
        TopicPartition tp = first.topicPartition();
        if (!first.hasSequence()) {
            PartitionSequences partition = partition(tp);
            if (!partition.idAndEpoch().equals(current)) {
                if (partition.hasIncomplete()) {
                    return false;
                }
                partition.startAtBeginning(current);
            }
            return !unresolved.containsKey(tp);
        }
        PartitionSequences partition = partitions.get(tp);
        int firstIncomplete = partition == null ? RecordBatch.NO_SEQUENCE : partition.firstIncompleteSequence();
        return firstIncomplete == RecordBatch.NO_SEQUENCE || firstIncomplete == first.baseSequence();
    }

    /** Numbers a batch being drained for the first time; one sent before keeps its sequence. */
    void numberIfNew(ProducerBatch batch) {
        if (!batch.hasSequence()) {
            partition(batch.topicPartition()).number(batch);
        }
    }

    void onAcknowledged(ProducerBatch batch, long baseOffset) {
        if (batch.hasSequence()) {
            partition(batch.topicPartition()).acknowledged(batch, baseOffset);
        }
    }

    /**
     * Whether a batch the broker refused with {@code errorCode} should be sent again, given that its
     * attempts and time allow it; may ask for a new epoch first (see the class comment).
     *
     * @param logStartOffset the partition's log start offset in the answer, -1 when the broker did not know it
     * @param retriable      whether the error is retriable for any producer
     */
    boolean canRetry(ProducerBatch batch, short errorCode, long logStartOffset, boolean retriable) {
        TopicPartition tp = batch.topicPartition();
        if (errorCode == UNKNOWN_PRODUCER_ID) {
            // A batch numbered again already will be answered the same until its turn comes.
            if (logStartOffset >= 0 && !batch.sequenceReset()) {
                requestEpochBump(tp);
            }
            return true;
        }
        if (errorCode == Errors.OUT_OF_ORDER_SEQUENCE_NUMBER.code()) {
            boolean isUnresolved = unresolved.containsKey(tp);
            if (!isUnresolved && (batch.sequenceReset() || !isNextSequence(tp, batch.baseSequence()))) {
                return true;    // a batch before it failed as well and goes first
            }
            if (!isUnresolved || batch.baseSequence() == unresolved.get(tp)) {
                // Also seen without any loss: batches in flight when the epoch was raised were appended under the
                // old epoch, so the broker expects the new one to start at 0.
                log.warn("{} got OUT_OF_ORDER_SEQUENCE_NUMBER for sequence {} of epoch {} right after the last "
                    + "acknowledged one: the broker does not count the sequences before it under that epoch (records "
                    + "lost in an unclean leader election, or batches in flight under the epoch before); numbering the "
                    + "partition's batches again under a new epoch", tp, batch.baseSequence(),
                    batch.producerIdAndEpoch().epoch());
                requestEpochBump(tp);
            }
            return true;
        }
        return retriable;
    }

    /**
     * A numbered batch failed for good with {@code errorCode} (-1 when no answer came).
     *
     * @param mayBeRenumbered whether the broker surely did not append it, so the batches after it must
     *                        be numbered again to close the gap it leaves
     */
    void onFailed(ProducerBatch batch, short errorCode, boolean mayBeRenumbered) {
        if (!batch.hasSequence()) {
            return;
        }
        TopicPartition tp = batch.topicPartition();
        PartitionSequences partition = partitions.get(tp);
        if (partition != null) {
            partition.remove(batch);
        }
        if (errorCode == Errors.OUT_OF_ORDER_SEQUENCE_NUMBER.code()) {
            requestEpochBump(tp);
        } else if (errorCode == UNKNOWN_PRODUCER_ID) {
            // the broker holds nothing for this producer here, so it takes sequence 0 again
            partitions.remove(tp);
            unresolved.remove(tp);
        } else if (mayBeRenumbered) {
            requestEpochBump(tp);
        }
    }

    /** A batch sent at least once expired: whether the broker has it is unknown until the batches around it complete. */
    void markSequenceUnresolved(ProducerBatch batch) {
        if (batch.hasSequence()) {
            unresolved.merge(batch.topicPartition(), RecordBatch.incrementSequence(batch.lastSequence(), 1), Math::max);
        }
    }

    /**
     * For each unresolved partition whose batches are all complete: resolved when every sequence
     * handed out was acknowledged, otherwise the hole is closed by a new epoch.
     */
    void maybeResolveSequences() {
        for (Iterator<TopicPartition> it = unresolved.keySet().iterator(); it.hasNext(); ) {
            TopicPartition tp = it.next();
            PartitionSequences partition = partitions.get(tp);
            if (partition != null && partition.hasIncomplete()) {
                continue;
            }
            if (partition == null || !partition.isNext(partition.nextSequence())) {
                log.info("{}: an expired batch left a hole in the sequence; numbering from 0 under a new epoch", tp);
                requestEpochBump(tp);
            }
            it.remove();
        }
    }

    /**
     * Raises the epoch if asked, numbering the partitions that asked from 0 under it. Past the last
     * epoch the producer id is dropped, and the sender asks for a new one.
     */
    void bumpEpochIfNeeded() {
        if (!epochBumpRequired) {
            return;
        }
        if (current.isValid() && current.epoch() < Short.MAX_VALUE) {
            current = new ProducerIdAndEpoch(current.producerId(), (short) (current.epoch() + 1));
            log.info("Idempotent producer raised its epoch: now {}", current);
        } else {
            log.info("Idempotent producer used up the epochs of {}; asking for a new producer id", current);
            current = ProducerIdAndEpoch.NONE;
        }
        for (TopicPartition tp : toRenumber) {
            PartitionSequences partition = partitions.get(tp);
            if (partition != null) {
                partition.startAtBeginning(current);
            }
            unresolved.remove(tp);
        }
        toRenumber.clear();
        epochBumpRequired = false;
    }

    private void requestEpochBump(TopicPartition tp) {
        epochBumpRequired = true;
        toRenumber.add(tp);
    }

    private boolean isNextSequence(TopicPartition tp, int sequence) {
        PartitionSequences partition = partitions.get(tp);
        return sequence - (partition == null ? PartitionSequences.NO_LAST_ACKED_SEQUENCE : partition.lastAckedSequence()) == 1;
    }

    private PartitionSequences partition(TopicPartition tp) {
        PartitionSequences partition = partitions.get(tp);
        if (partition == null) {
            partition = new PartitionSequences(current);
            partitions.put(tp, partition);
        }
        return partition;
    }

    /** The partition's numbering, for tests; null before its first batch. */
    PartitionSequences sequences(TopicPartition tp) {
        return partitions.get(tp);
    }
}
