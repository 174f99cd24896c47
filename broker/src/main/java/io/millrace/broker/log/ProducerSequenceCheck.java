package io.millrace.broker.log;

import io.millrace.common.TopicPartition;
import io.millrace.common.errors.InvalidProducerEpochException;
import io.millrace.common.errors.InvalidRecordException;
import io.millrace.common.errors.OutOfOrderSequenceException;
import io.millrace.common.record.RecordBatch;

/**
 * Kafka's rules for a batch an idempotent producer sends to a partition leader, against what the
 * partition remembers of that producer. A known producer is fenced by an older epoch; a newer epoch
 * must start at sequence 0; the same epoch must continue at the last sequence plus one, wrapping from
 * {@link Integer#MAX_VALUE} to 0. Duplicates are looked for before these rules (see
 * {@link ProducerStateManager}). Stateless.
 *
 * <p>A producer the partition does not know may start at any sequence once the log has deleted
 * records (its batches may have gone with them), as Kafka allows since KIP-360. While the log still
 * holds everything from offset 0 it must start at sequence 0 of its epoch: otherwise a first batch
 * refused as retriable (say NOT_LEADER_OR_FOLLOWER while the leadership was being taken) with the next
 * in flight would let the next be appended first, and the retried first one would then be out of
 * order for good, stranding the producer (Kafka's rule does that). Refused as out of order, the later
 * batch is retried behind the first by Kafka's producer and by Millrace's; a producer forgotten after
 * {@code producer.id.expiration.ms} is refused the same way and both clients raise their epoch,
 * which starts again at sequence 0.
 */
final class ProducerSequenceCheck {

    private ProducerSequenceCheck() {
    }

    /**
     * Throws if {@code batch} may not follow {@code current} (null for an unknown producer).
     *
     * @param logKeepsAll whether the log still holds every record from offset 0, so that an unknown
     *                    producer's first batch here is its first in this epoch
     *
     * @throws InvalidRecordException        the batch has a producer id but no sequence number
     * @throws InvalidProducerEpochException its epoch is older than the producer's last
     * @throws OutOfOrderSequenceException   its first sequence does not follow on
     */
    static void check(TopicPartition partition, ProducerStateEntry current, RecordBatch batch, boolean logKeepsAll) {
        long producerId = batch.producerId();
        int firstSeq = batch.baseSequence();
        if (firstSeq < 0) {
            throw new InvalidRecordException("Invalid sequence number " + firstSeq + " in a record batch of producer "
                + producerId);
        }
        if (current == null) {
            if (firstSeq != 0 && logKeepsAll) {
                throw new OutOfOrderSequenceException("Producer " + producerId + " starts on " + partition + " at sequence "
                    + firstSeq + " (epoch " + batch.producerEpoch() + "), but the partition holds every record since offset 0"
                    + " and none of this producer's: sequence 0 is due first");
            }
            return;
        }
        short epoch = batch.producerEpoch();
        if (epoch < current.epoch()) {
            throw new InvalidProducerEpochException("Producer " + producerId + " sent epoch " + epoch + " to " + partition
                + ", older than the last epoch seen from it, " + current.epoch());
        }
        if (epoch != current.epoch()) {
            if (firstSeq != 0) {
                throw new OutOfOrderSequenceException("Producer " + producerId + " starts its new epoch " + epoch + " on "
                    + partition + " at sequence " + firstSeq + ", not 0 (its last epoch was " + current.epoch() + ")");
            }
        } else if (!inSequence(current.lastSeq(), firstSeq)) {
            throw new OutOfOrderSequenceException("Out of order sequence number for producer " + producerId + " on "
                + partition + ": sequence " + firstSeq + " (epoch " + epoch + ") where " + expected(current.lastSeq())
                + " was due");
        }
    }

    /** Whether {@code next} directly follows {@code last}, wrapping at {@link Integer#MAX_VALUE}. */
    static boolean inSequence(int last, int next) {
        return next == last + 1L || (next == 0 && last == Integer.MAX_VALUE);
    }

    private static int expected(int last) {
        return last == RecordBatch.NO_SEQUENCE ? 0 : RecordBatch.incrementSequence(last, 1);
    }
}
