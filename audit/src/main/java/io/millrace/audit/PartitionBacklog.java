package io.millrace.audit;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * One partition's consumed records whose offsets are not committed yet, counted in offset order as
 * runs: records at consecutive offsets, of one kind (with a time, without one, malformed), in one
 * window. Consumption mostly stays in one window, so a run usually covers everything between two
 * commits; a record of another window or kind, or an offset gap, starts a new run.
 *
 * <p>A commit releases the records below its offset; a record at an offset already counted means the
 * partition is read again from there (a rewind, or a restart from the last commit), so the counts from
 * that offset on are dropped first, and a record is never held twice. Cutting a run in two at an
 * offset inside it is exact for the records (its offsets are consecutive) and shares its bytes in
 * proportion. Latencies are kept per window as the records pass and go out with the window's next
 * release. Not thread-safe: {@link UncommittedCounts} holds its lock.
 */
final class PartitionBacklog {

    enum Kind { TIMED, NO_TIME, MALFORMED }

    /** Records at offsets {@code [first, last]}, all of one kind, in the window starting at {@code windowStart}. */
    private static final class Run {
        final long windowStart;
        final Kind kind;
        long first;
        long last;
        long bytes;
        boolean sealed;

        Run(long windowStart, Kind kind, long offset, long bytes) {
            this.windowStart = windowStart;
            this.kind = kind;
            this.first = offset;
            this.last = offset;
            this.bytes = bytes;
        }

        long records() {
            return last - first + 1;
        }

        boolean extendsWith(long offset, long window, Kind other) {
            return !sealed && offset == last + 1 && window == windowStart && other == kind;
        }

        /** The bytes of the first {@code records} records, in proportion: a run does not keep each record's size. */
        long bytesOfFirst(long records) {
            return records == records() ? bytes : Math.round((double) bytes * records / records());
        }

        HeldCounts counts(long records, long runBytes) {
            return switch (kind) {
                case TIMED -> new HeldCounts(records, runBytes, 0, 0);
                case NO_TIME -> new HeldCounts(0, runBytes, records, 0);
                case MALFORMED -> new HeldCounts(0, 0, 0, records);
            };
        }
    }

    private final String topic;
    private final ArrayDeque<Run> runs = new ArrayDeque<>();
    private final Map<Long, LatencyHistogram> latencies = new HashMap<>();

    PartitionBacklog(String topic) {
        this.topic = topic;
    }

    /** Holds the record at {@code offset}; {@code latencyMs} is recorded for timed records only. */
    void add(long offset, long windowStart, Kind kind, long bytes, long latencyMs) {
        Run tail = runs.peekLast();
        if (tail != null && offset <= tail.last) {
            dropFrom(offset);
            tail = runs.peekLast();
        }
        if (tail != null && tail.extendsWith(offset, windowStart, kind)) {
            tail.last = offset;
            tail.bytes += bytes;
        } else {
            runs.addLast(new Run(windowStart, kind, offset, bytes));
        }
        if (kind == Kind.TIMED) {
            latencies.computeIfAbsent(windowStart, w -> new LatencyHistogram()).record(latencyMs);
        }
    }

    /**
     * Closes the last run, so that what is counted from now on starts a new one, and returns the offset
     * after it (-1 when nothing is held): a commit made after this call covers everything below it.
     */
    long seal() {
        Run tail = runs.peekLast();
        if (tail == null) {
            return -1;
        }
        tail.sealed = true;
        return tail.last + 1;
    }

    /** Moves the counts of the records below {@code offset} into {@code into}'s windows. */
    void releaseBelow(long offset, AuditCounter into) {
        while (!runs.isEmpty() && runs.peekFirst().first < offset) {
            Run head = runs.peekFirst();
            long records = Math.min(head.records(), offset - head.first);
            long bytes = head.bytesOfFirst(records);
            into.add(topic, head.windowStart, head.counts(records, bytes), latencies.remove(head.windowStart));
            if (records == head.records()) {
                runs.pollFirst();
            } else {
                head.first += records;
                head.bytes -= bytes;
            }
        }
    }

    /** Forgets the records at {@code offset} and after: they are being delivered again. */
    void dropFrom(long offset) {
        while (!runs.isEmpty() && runs.peekLast().last >= offset) {
            Run tail = runs.peekLast();
            if (tail.first >= offset) {
                runs.pollLast();
            } else {
                long kept = offset - tail.first;
                tail.bytes = tail.bytesOfFirst(kept);
                tail.last = offset - 1;
            }
        }
    }

    /** How many records are held. */
    long records() {
        long total = 0;
        for (Run run : runs) {
            total += run.records();
        }
        return total;
    }
}
