package io.millrace.audit;

import java.util.concurrent.atomic.LongAdder;

/**
 * The running counts of one topic in one window, between two deltas. Recording is lock-free;
 * {@link #drain} takes what was counted and leaves zeros, so a count made while draining lands in the
 * next delta, never in none. Thread-safe.
 */
final class WindowCounts {

    private final String topic;
    private final long windowStart;
    private final long windowEnd;
    private final LongAdder count = new LongAdder();
    private final LongAdder bytes = new LongAdder();
    private final LongAdder noTime = new LongAdder();
    private final LongAdder malformed = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LatencyHistogram latency = new LatencyHistogram();
    /** When this window's counts are first due (its end plus the lateness allowance): written once. */
    private final long dueAtMs;
    private volatile boolean retired;

    WindowCounts(String topic, long windowStart, long windowEnd, long dueAtMs) {
        this.topic = topic;
        this.windowStart = windowStart;
        this.windowEnd = windowEnd;
        this.dueAtMs = dueAtMs;
    }

    void counted(long eventBytes, long latencyMs) {
        count.increment();
        bytes.add(eventBytes);
        latency.record(latencyMs);
    }

    /** {@code events} events of {@code eventBytes} in all, their latencies recorded apart ({@link #recordLatencies}). */
    void countedMany(long events, long eventBytes) {
        count.add(events);
        bytes.add(eventBytes);
    }

    /** {@code times} latencies in one bucket of the histogram, the largest {@code largestMs}. */
    void recordLatencies(long largestMs, long times) {
        latency.record(largestMs, times);
    }

    void countedWithoutTime(long eventBytes) {
        noTime.increment();
        bytes.add(eventBytes);
    }

    void malformed() {
        malformed.increment();
    }

    void failed() {
        failed.increment();
    }

    /** Counts held back until their data was committed, added at once. */
    void add(HeldCounts held) {
        count.add(held.timed());
        bytes.add(held.bytes());
        noTime.add(held.noTime());
        malformed.add(held.malformed());
    }

    /** Takes every latency recorded in {@code held}, which is left empty. */
    void addLatencies(LatencyHistogram held) {
        held.drainInto(latency);
    }

    long dueAtMs() {
        return dueAtMs;
    }

    long windowStart() {
        return windowStart;
    }

    /** Taken out of its counter's map: new counts for its window go to a new one. */
    void retire() {
        retired = true;
    }

    boolean isRetired() {
        return retired;
    }

    /** What was counted since the last drain, and zeros from now on. */
    WindowDelta drain() {
        LatencyHistogram.Summary latencies = latency.drain();
        return new WindowDelta(topic, windowStart, windowEnd, count.sumThenReset(), bytes.sumThenReset(),
            noTime.sumThenReset(), malformed.sumThenReset(), failed.sumThenReset(), latencies.p50Ms(), latencies.p99Ms(),
            latencies.maxMs());
    }
}
