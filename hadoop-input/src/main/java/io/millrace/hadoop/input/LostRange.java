package io.millrace.hadoop.input;

import java.util.ArrayList;
import java.util.List;

/**
 * Offsets {@code [from, to)} of a partition that retention deleted before any load read them: the
 * load had to go on from the partition's earliest offset {@code to}. Never hidden: every lost range is
 * counted, written into the load's manifest and summary, logged, and with auditing on published to the audit
 * topic.
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

    /** {@code topic/partition/from/to;...}: topic names hold neither '/' nor ';'. */
    public static String encode(List<LostRange> ranges) {
        StringBuilder out = new StringBuilder();
        for (LostRange r : ranges) {
            out.append(out.length() == 0 ? "" : ";").append(r.topic).append('/').append(r.partition).append('/')
                .append(r.from).append('/').append(r.to);
        }
        return out.toString();
    }

    /** The ranges of {@link #encode}; empty for null or "". */
    public static List<LostRange> decode(String encoded) {
        List<LostRange> ranges = new ArrayList<>();
        if (encoded != null && !encoded.isEmpty()) {
            for (String one : encoded.split(";")) {
                String[] f = one.split("/");
                ranges.add(new LostRange(f[0], Integer.parseInt(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3])));
            }
        }
        return ranges;
    }
}
