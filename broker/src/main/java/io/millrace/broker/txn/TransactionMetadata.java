package io.millrace.broker.txn;

import io.millrace.common.TopicPartition;
import java.util.Set;
import java.util.TreeSet;

/**
 * A transactional id as its coordinator holds it: the durable state (the last record written to
 * __transaction_state) and whether a change of it is being written. While one is, every other
 * request for the id is answered CONCURRENT_TRANSACTIONS, which producers retry: changes happen
 * one at a time, each durable before it is acted on.
 *
 * <p>Thread-safety: callers hold the instance's monitor.
 */
final class TransactionMetadata {

    private final String transactionalId;
    private TransactionLogRecord current;
    private TransactionLogRecord pending;
    /** The epoch before the last raise (-1 for none): its producer may still ask for the next one (KIP-360). */
    private short lastProducerEpoch = -1;

    TransactionMetadata(TransactionLogRecord current) {
        this.transactionalId = current.transactionalId();
        this.current = current;
    }

    String transactionalId() {
        return transactionalId;
    }

    TransactionLogRecord current() {
        return current;
    }

    long producerId() {
        return current.producerId();
    }

    short producerEpoch() {
        return current.producerEpoch();
    }

    TransactionState state() {
        return current.state();
    }

    /**
     * Whether a producer holding {@code producerId} at {@code epoch} may ask for the next epoch: it has
     * the current one, or the one before the last raise (its transaction was aborted under it at its
     * timeout, and it is recovering as Kafka's producer does, KIP-360).
     */
    boolean mayRaiseFrom(long producerId, short epoch) {
        return producerId == current.producerId() && (epoch == current.producerEpoch() || epoch == lastProducerEpoch);
    }

    /** Whether a change is being written. */
    boolean hasPending() {
        return pending != null;
    }

    /** Starts writing {@code next}; the caller appends it and then calls {@link #completePending} or {@link #abandonPending}. */
    void beginPending(TransactionLogRecord next) {
        if (pending != null) {
            throw new IllegalStateException("A change of " + transactionalId + " is already being written");
        }
        pending = next;
    }

    /** The pending change is durable: it is the state now. */
    TransactionLogRecord completePending() {
        if (pending.producerId() == current.producerId() && pending.producerEpoch() > current.producerEpoch()) {
            lastProducerEpoch = current.producerEpoch();
        } else if (pending.producerId() != current.producerId()) {
            lastProducerEpoch = -1;
        }
        current = pending;
        pending = null;
        return current;
    }

    /** The pending change could not be written: the state stays as it was. */
    void abandonPending() {
        pending = null;
    }

    /** The next record: this id in {@code state} with {@code partitions}, changed at {@code nowMs}. */
    TransactionLogRecord next(TransactionState state, short epoch, Set<TopicPartition> partitions, long startMs, long nowMs) {
        return new TransactionLogRecord(transactionalId, current.producerId(), epoch, current.timeoutMs(), state,
            new TreeSet<>(partitions), nowMs, startMs);
    }
}
