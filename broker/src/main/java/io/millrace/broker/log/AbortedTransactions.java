package io.millrace.broker.log;

import java.util.ArrayList;
import java.util.List;

/**
 * The transactions a partition's log holds that ended aborted, in the order of their markers (so
 * by last offset): what a read-committed fetch names beside its records, so that the consumer
 * drops each such producer's records from the transaction's first offset until its marker.
 *
 * <p>Kept in memory with the producer state and written in its snapshots; entries whose marker
 * lies below the log start offset are dropped, as their records are gone. Aborts are rare (a
 * failed or fenced producer), so the list stays short.
 *
 * <p>Thread-safety: none; the owning {@link ProducerStateManager} synchronizes.
 */
public final class AbortedTransactions {

    /**
     * One aborted transaction.
     *
     * @param producerId  its producer
     * @param firstOffset the offset of its first batch in the partition
     * @param lastOffset  the offset of its abort marker
     */
    public record Aborted(long producerId, long firstOffset, long lastOffset) {
    }

    private final List<Aborted> entries = new ArrayList<>();

    AbortedTransactions() {
    }

    void add(Aborted aborted) {
        entries.add(aborted);
    }

    /** Every entry, oldest marker first: a copy, for snapshots. */
    List<Aborted> all() {
        return List.copyOf(entries);
    }

    /** The aborted transactions with records in {@code [from, to)}: marker at or after {@code from}, start before {@code to}. */
    List<Aborted> overlapping(long from, long to) {
        if (entries.isEmpty()) {
            return List.of(); // the common case: a read-committed fetch of a log without aborts allocates nothing
        }
        List<Aborted> found = new ArrayList<>();
        for (int i = firstEndingAtOrAfter(from); i < entries.size(); i++) {
            Aborted aborted = entries.get(i);
            if (aborted.firstOffset() < to) {
                found.add(aborted);
            }
        }
        return found;
    }

    /** Drops the entries whose marker is below {@code offset}. */
    void removeEndingBelow(long offset) {
        entries.subList(0, firstEndingAtOrAfter(offset)).clear();
    }

    void clear() {
        entries.clear();
    }

    private int firstEndingAtOrAfter(long offset) {
        int low = 0;
        int high = entries.size();
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (entries.get(mid).lastOffset() < offset) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }
}
