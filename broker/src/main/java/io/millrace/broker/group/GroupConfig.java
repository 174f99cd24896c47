package io.millrace.broker.group;

/**
 * The coordinator's limits, Kafka's {@code group.min.session.timeout.ms},
 * {@code group.max.session.timeout.ms} and {@code group.max.size}.
 */
public record GroupConfig(int minSessionTimeoutMs, int maxSessionTimeoutMs, int maxSize) {

    public static final GroupConfig DEFAULT = new GroupConfig(6_000, 1_800_000, Integer.MAX_VALUE);
}
