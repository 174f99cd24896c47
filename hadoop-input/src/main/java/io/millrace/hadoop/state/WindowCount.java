package io.millrace.hadoop.state;

/**
 * What a load counted of one topic in one audit window of event time ({@code [windowStart, windowEnd)}), for
 * the hadoop tier of the audit: the events it loaded and their key and value bytes, the events without a
 * usable time and the undecodable messages (both in the window of the time they were read, never dropped
 * from the books), and the latency from event time to the load in ms. Immutable.
 */
public record WindowCount(String topic, long windowStart, long windowEnd, long count, long bytes, long noTimeCount,
                          long malformedCount, long latencyP50Ms, long latencyP99Ms, long latencyMaxMs) {

    /**
     * The counts of this window and {@code other}'s, e.g. of two tasks that read partitions of the same topic:
     * sums, and of the latencies the larger. A percentile of the union lies between the parts' percentiles, so
     * the larger is never below the true value, as each part's is not.
     */
    public WindowCount plus(WindowCount other) {
        if (!topic.equals(other.topic) || windowStart != other.windowStart) {
            throw new IllegalArgumentException("Different windows: " + this + " and " + other);
        }
        return new WindowCount(topic, windowStart, windowEnd, count + other.count, bytes + other.bytes,
            noTimeCount + other.noTimeCount, malformedCount + other.malformedCount,
            Math.max(latencyP50Ms, other.latencyP50Ms), Math.max(latencyP99Ms, other.latencyP99Ms),
            Math.max(latencyMaxMs, other.latencyMaxMs));
    }
}
