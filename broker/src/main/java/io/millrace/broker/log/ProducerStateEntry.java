package io.millrace.broker.log;

import io.millrace.common.record.RecordBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a partition remembers of one idempotent producer: its epoch, the sequence numbers and
 * offsets of its last {@value #BATCHES_RETAINED} batches in that epoch (oldest first), and when it
 * was last seen. Five is the number of requests a Kafka producer may have in flight per connection
 * with idempotence on, so a retry of any of them is still recognised as a duplicate.
 *
 * <p>Immutable: an append builds the entries it would leave behind and installs them only once
 * its bytes are written, so a refused append changes nothing.
 *
 * @param producerId the producer id InitProducerId handed out
 * @param epoch      the latest epoch seen from it
 * @param batches    its last batches in {@code epoch}, oldest first, at most {@value #BATCHES_RETAINED}
 * @param lastSeenMs when it last appended, on the broker's clock (for {@code producer.id.expiration.ms})
 */
public record ProducerStateEntry(long producerId, short epoch, List<BatchMetadata> batches, long lastSeenMs) {

    /** How many of a producer's batches are remembered for duplicate detection. */
    public static final int BATCHES_RETAINED = 5;

    /**
     * One appended batch of the producer.
     *
     * @param firstSeq    its BaseSequence
     * @param lastSeq     its last record's sequence number
     * @param firstOffset the offset its first record got
     * @param lastOffset  the offset its last record got
     * @param timestamp   its MaxTimestamp as stored (the broker's stamp under LogAppendTime)
     */
    public record BatchMetadata(int firstSeq, int lastSeq, long firstOffset, long lastOffset, long timestamp) {
    }

    public ProducerStateEntry {
        batches = List.copyOf(batches);
    }

    /** A producer seen for the first time, with no batch yet. */
    static ProducerStateEntry empty(long producerId, short epoch, long nowMs) {
        return new ProducerStateEntry(producerId, epoch, List.of(), nowMs);
    }

    /** The last batch's final sequence number, or {@link RecordBatch#NO_SEQUENCE} when none is remembered. */
    public int lastSeq() {
        return batches.isEmpty() ? RecordBatch.NO_SEQUENCE : batches.get(batches.size() - 1).lastSeq();
    }

    /** The remembered batch with the same epoch and sequence range as {@code batch}: a retry of it. */
    Optional<BatchMetadata> findDuplicate(RecordBatch batch) {
        if (batch.producerEpoch() != epoch) {
            return Optional.empty();
        }
        int first = batch.baseSequence();
        int last = batch.lastSequence();
        for (BatchMetadata known : batches) {
            if (known.firstSeq() == first && known.lastSeq() == last) {
                return Optional.of(known);
            }
        }
        return Optional.empty();
    }

    /**
     * This entry after {@code batch} was appended with epoch {@code batchEpoch}: a new epoch
     * forgets the old epoch's batches, and the oldest batch goes once more than
     * {@value #BATCHES_RETAINED} are held.
     */
    ProducerStateEntry withBatch(short batchEpoch, BatchMetadata batch, long nowMs) {
        List<BatchMetadata> kept = new ArrayList<>(BATCHES_RETAINED);
        if (batchEpoch == epoch) {
            int from = Math.max(0, batches.size() - (BATCHES_RETAINED - 1));
            kept.addAll(batches.subList(from, batches.size()));
        }
        kept.add(batch);
        return new ProducerStateEntry(producerId, batchEpoch, kept, Math.max(lastSeenMs, nowMs));
    }

    /** Whether the producer has been idle for at least {@code expirationMs} at {@code nowMs}. */
    boolean isExpired(long nowMs, long expirationMs) {
        return nowMs - lastSeenMs >= expirationMs;
    }
}
