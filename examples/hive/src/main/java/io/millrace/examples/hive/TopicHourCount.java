package io.millrace.examples.hive;

import java.util.List;
import java.util.Locale;

/**
 * The events Hive counted in one topic's hour; {@code hour} is the hour's label as the loader's summary
 * writes it ({@code yyyy-MM-ddTHH}, UTC). A line of the counts file is the three fields, tab-separated.
 */
public record TopicHourCount(String topic, String hour, long events) {

    /** A line of the counts file. */
    public String line() {
        return String.format(Locale.ROOT, "%s\t%s\t%d", topic, hour, events);
    }

    /** The count a line of the counts file holds. */
    public static TopicHourCount parse(String line) {
        List<String> fields = List.of(line.split("\t", -1));
        if (fields.size() != 3) {
            throw new IllegalArgumentException("Not a line of topic, hour and count: " + line);
        }
        return new TopicHourCount(fields.get(0), fields.get(1), Long.parseLong(fields.get(2)));
    }
}
