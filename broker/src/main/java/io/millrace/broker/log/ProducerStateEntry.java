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
 * @param coordinatorEpoch      the epoch of the transaction coordinator that wrote its last marker here, -1 for none
 * @param currentTxnFirstOffset the offset of its open transaction's first batch here, -1 when none is open
 */
public record ProducerStateEntry(long producerId, short epoch, List<BatchMetadata> batches, long lastSeenMs,
                                 int coordinatorEpoch, long currentTxnFirstOffset) {

    /** No transaction open, or no coordinator epoch known. */
    public static final long NO_TXN = -1L;

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

    /** An idempotent producer's entry: no transaction open, no coordinator known. */
    public ProducerStateEntry(long producerId, short epoch, List<BatchMetadata> batches, long lastSeenMs) {
        this(producerId, epoch, batches, lastSeenMs, -1, NO_TXN);
    }

    /** A producer seen for the first time, with no batch yet. */
    static ProducerStateEntry empty(long producerId, short epoch, long nowMs) {
        return new ProducerStateEntry(producerId, epoch, List.of(), nowMs);
    }

    /** Whether a transaction of the producer is open in this partition. */
    public boolean inTransaction() {
        return currentTxnFirstOffset >= 0;
    }

    /** This entry with a transaction opened at {@code firstOffset}. */
    ProducerStateEntry withTxnStarted(long firstOffset) {
        return new ProducerStateEntry(producerId, epoch, batches, lastSeenMs, coordinatorEpoch, firstOffset);
    }

    /**
     * This entry after a marker ended its transaction: no transaction open, the marker's producer
     * epoch (a coordinator aborting for a new epoch writes that epoch, fencing the old one) and
     * coordinator epoch. A new epoch forgets the old epoch's batches, as a batch of it would.
     */
    ProducerStateEntry withTxnEnded(short markerEpoch, int markerCoordinatorEpoch, long nowMs) {
        List<BatchMetadata> kept = markerEpoch == epoch ? batches : List.of();
        return new ProducerStateEntry(producerId, markerEpoch, kept, Math.max(lastSeenMs, nowMs), markerCoordinatorEpoch,
            NO_TXN);
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
        return new ProducerStateEntry(producerId, batchEpoch, kept, Math.max(lastSeenMs, nowMs), coordinatorEpoch,
            currentTxnFirstOffset);
    }

    /**
     * Whether the producer has been idle for at least {@code expirationMs} at {@code nowMs}. A
     * producer with a transaction open is kept: its marker must still find where the transaction began.
     */
    boolean isExpired(long nowMs, long expirationMs) {
        return !inTransaction() && nowMs - lastSeenMs >= expirationMs;
    }
}
