package io.millrace.hadoop.input;

/**
 * Offsets {@code [from, to)} of a partition that retention deleted before any load read them: the
 * load had to go on from the partition's earliest offset {@code to}. Never hidden: every lost range is
 * counted, written into the load's manifest and summary, and logged.
 */
public record LostRange(String topic, int partition, long from, long to) {

    public LostRange {
        if (to <= from) {
            throw new IllegalArgumentException("An empty lost range " + topic + "-" + partition + " [" + from + ", " + to + ")");
        }
    }

    public long count() {
        return to - from;
    }
}
