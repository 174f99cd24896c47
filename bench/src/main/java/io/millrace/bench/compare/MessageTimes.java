package io.millrace.bench.compare;

import java.util.Arrays;

/**
 * When each message of an end-to-end run was sent, acknowledged to its producer and handed to its
 * consumer ({@link System#nanoTime()}), by sequence number: the message carries its number, so the
 * consumer can look up its send time. Splitting a message's latency at its acknowledgement tells
 * whether a tail comes from the produce path (batching, the request, the broker's append) or from
 * the fetch path (the broker's answer to a waiting fetch, the consumer's poll).
 */
final class MessageTimes {

    private final long[] sent;
    private final long[] acknowledged;
    private final long[] received;

    MessageTimes(int count) {
        sent = new long[count];
        acknowledged = new long[count];
        received = new long[count];
    }

    int count() {
        return sent.length;
    }

    void sent(int sequence) {
        sent[sequence] = System.nanoTime();
    }

    /** Called on the producer's I/O thread, in the order of each partition's batches. */
    void acknowledged(int sequence) {
        acknowledged[sequence] = System.nanoTime();
    }

    void received(int sequence, long nanos) {
        received[sequence] = nanos;
    }

    /** Every message's latency from send to receipt, sorted. */
    long[] endToEnd() {
        return sortedDifferences(sent, received);
    }

    long[] sendToAcknowledged() {
        return sortedDifferences(sent, acknowledged);
    }

    /**
     * From acknowledgement to receipt, sorted; negative where the consumer had the message before
     * the producer's callback ran, which a fetch answered at once can do.
     */
    long[] acknowledgedToReceived() {
        return sortedDifferences(acknowledged, received);
    }

    /** A test of a message's send and receipt times ({@link System#nanoTime()}). */
    interface Span {
        boolean test(long sentNanos, long receivedNanos);
    }

    /** The latencies, sorted, of the messages whose send and receipt {@code left} does not pick. */
    long[] endToEndExcept(Span left) {
        long[] d = new long[sent.length];
        int kept = 0;
        for (int i = 0; i < d.length; i++) {
            if (!left.test(sent[i], received[i])) {
                d[kept++] = received[i] - sent[i];
            }
        }
        d = Arrays.copyOf(d, kept);
        Arrays.sort(d);
        return d;
    }

    private static long[] sortedDifferences(long[] from, long[] to) {
        long[] d = new long[from.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = to[i] - from[i];
        }
        Arrays.sort(d);
        return d;
    }
}
