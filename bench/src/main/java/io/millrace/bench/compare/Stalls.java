package io.millrace.bench.compare;

/**
 * The longest stretch of a run in which almost nothing completed, read from its
 * {@link ThroughputTimeline}. A run of half a second at millions of records a second loses half its
 * rate to one stall of a quarter of a second, whoever caused it; naming the stall beside the rate tells
 * a slow run that stopped from one that ran slowly throughout.
 */
final class Stalls {

    /** An interval below this share of the run's mean rate counts as stalled. */
    static final double STALLED_SHARE = 0.1;

    private Stalls() {
    }

    /**
     * The longest run of consecutive stalled intervals, in milliseconds, between the first interval that
     * reached half the mean rate (before it the client is still starting) and the end; 0 when none.
     */
    static long longestMillis(double[] recordsPerSecond, long intervalMillis) {
        double mean = 0;
        for (double rate : recordsPerSecond) {
            mean += rate / recordsPerSecond.length;
        }
        int first = 0;
        while (first < recordsPerSecond.length && recordsPerSecond[first] < mean / 2) {
            first++;
        }
        int longest = 0;
        int current = 0;
        for (int i = first; i < recordsPerSecond.length; i++) {
            current = recordsPerSecond[i] < mean * STALLED_SHARE ? current + 1 : 0;
            longest = Math.max(longest, current);
        }
        return longest * intervalMillis;
    }

    static long longestMillis(ThroughputTimeline timeline) {
        return longestMillis(timeline.recordsPerSecond(), timeline.intervalMillis());
    }
}
