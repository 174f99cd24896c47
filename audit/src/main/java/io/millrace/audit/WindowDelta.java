package io.millrace.audit;

/**
 * What a tier counted of one topic in one window of event time since the last delta of that window:
 * the body of an audit record. The report sums the deltas of a window.
 */
public record WindowDelta(String topic, long windowStart, long windowEnd, long count, long bytes, long noTimeCount,
                          long malformedCount, long failedCount, long latencyP50Ms, long latencyP99Ms, long latencyMaxMs) {

    boolean isEmpty() {
        return count == 0 && noTimeCount == 0 && malformedCount == 0 && failedCount == 0;
    }
}
