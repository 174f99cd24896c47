package io.millrace.hadoop.state;

/** How many events of a topic a load put into one event hour ({@code hour} as {@code yyyy-MM-ddTHH}, UTC). */
public record HourCount(String topic, String hour, long records) {
}
