package io.millrace.consumer.internals;

import java.util.ArrayList;
import java.util.List;

/**
 * The records a stream has handed to the application and the application has not yet come back
 * from: per partition, the position before the first of them and the offset after the last. They
 * count as processed, and so become what a commit writes, only when {@link #markProcessed()} is
 * called, which the stream does when the application asks it for more. Used by the stream's one
 * reading thread only; entries are reused, so the steady state allocates nothing.
 */
public final class PendingOffsets {

    private final List<Entry> entries = new ArrayList<>();
    private int size;

    private static final class Entry {
        OwnedPartition partition;
        long before;
        long next;
    }

    /** Notes that the record before {@code nextOffset} of {@code partition} is now in the application's hands. */
    public void delivered(OwnedPartition partition, long nextOffset) {
        Entry entry = find(partition);
        if (entry == null) {
            entry = append();
            entry.partition = partition;
            entry.before = partition.position();
        }
        entry.next = nextOffset;
    }

    /**
     * The offset after the last record of {@code partition} handed out and not yet processed, or -1.
     * A chunk fetched again from an earlier offset starts there, so nothing is handed out twice.
     */
    public long deliveredUpTo(OwnedPartition partition) {
        Entry entry = find(partition);
        return entry == null ? -1 : entry.next;
    }

    /** Everything handed out so far is processed: move each partition's position past it. */
    public void markProcessed() {
        for (int i = 0; i < size; i++) {
            Entry entry = entries.get(i);
            entry.partition.advance(entry.before, entry.next);
            entry.partition = null;
        }
        size = 0;
    }

    private Entry find(OwnedPartition partition) {
        for (int i = 0; i < size; i++) {
            if (entries.get(i).partition == partition) {
                return entries.get(i);
            }
        }
        return null;
    }

    private Entry append() {
        if (size == entries.size()) {
            entries.add(new Entry());
        }
        return entries.get(size++);
    }
}
