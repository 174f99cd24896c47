package io.millrace.common.client;

/**
 * A broker as clients address it. Brokers named in {@code bootstrap.servers} have negative ids until
 * the first Metadata response names them; connections are keyed by address, so a bootstrap node and
 * the broker it turns out to be share one connection.
 */
public record Node(int id, String host, int port) {

    public Node {
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException("A node needs a host");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("Port out of range: " + port);
        }
    }

    public boolean isBootstrap() {
        return id < 0;
    }

    /** {@code host:port}, the form {@code bootstrap.servers} takes. */
    public String address() {
        return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
    }

    @Override
    public String toString() {
        return (isBootstrap() ? "bootstrap " : "broker " + id + " at ") + address();
    }
}
