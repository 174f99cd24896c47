package io.millrace.broker.cluster;

import java.util.Objects;

/**
 * A live broker as its registration znode describes it: where clients reach it, its rack (null
 * when not configured) and when it registered, in wall-clock milliseconds.
 */
public record BrokerInfo(int id, String host, int port, String rack, long timestamp) {

    public BrokerInfo {
        Objects.requireNonNull(host, "host");
        if (id < 0) {
            throw new IllegalArgumentException("Broker id must not be negative: " + id);
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("Port out of range: " + port);
        }
    }
}
