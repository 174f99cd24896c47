package io.millrace.hadoop.state;

/** One event hour of a topic ({@code hour} as {@code yyyy-MM-ddTHH}, UTC), e.g. an hour that received late data. */
public record TopicHour(String topic, String hour) {
}
