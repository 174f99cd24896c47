package io.millrace.broker.network;

import io.millrace.common.config.ConfigException;
import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One entry of {@code listeners}: {@code NAME://host:port}, as Kafka writes it. An empty host
 * ({@code PLAINTEXT://:9092}) listens on every interface; port 0 picks a free port, which
 * {@link NetworkServer#boundAddresses()} reports after binding. IPv6 hosts go in brackets
 * ({@code PLAINTEXT://[::1]:9092}).
 *
 * <p>Only {@code PLAINTEXT} exists for now: the name is also the security protocol until TLS
 * and a {@code listener.security.protocol.map} arrive. Immutable.
 */
public final class Endpoint {

    public static final String PLAINTEXT = "PLAINTEXT";

    private static final Pattern FORMAT = Pattern.compile("^([A-Za-z0-9_]+)://(\\[[^\\]]*\\]|[^:/\\[\\]]*):([0-9]+)$");

    private final String listenerName;
    private final String host;
    private final int port;

    public Endpoint(String listenerName, String host, int port) {
        this.listenerName = Objects.requireNonNull(listenerName);
        this.host = Objects.requireNonNull(host);
        this.port = port;
    }

    /** Parses {@code NAME://host:port}; throws {@link ConfigException} naming the setting. */
    public static Endpoint parse(String setting, String value) {
        Matcher m = FORMAT.matcher(value.trim());
        if (!m.matches()) {
            throw new ConfigException(setting, value, "expected NAME://host:port, e.g. PLAINTEXT://127.0.0.1:9092");
        }
        String name = m.group(1).toUpperCase(Locale.ROOT);
        if (!name.equals(PLAINTEXT)) {
            throw new ConfigException(setting, value, "only PLAINTEXT listeners are supported");
        }
        String host = m.group(2);
        if (host.startsWith("[")) {
            host = host.substring(1, host.length() - 1);
        }
        int port = Integer.parseInt(m.group(3));
        if (port > 65535) {
            throw new ConfigException(setting, value, "port must be at most 65535");
        }
        return new Endpoint(name, host, port);
    }

    public String listenerName() {
        return listenerName;
    }

    /** The host to bind; empty means every interface. */
    public String host() {
        return host;
    }

    /** The configured port; 0 means a free one chosen at bind time. */
    public int port() {
        return port;
    }

    /** The address to bind. Resolves {@link #host()}; call it when binding, not at parse time. */
    public InetSocketAddress bindAddress() {
        return host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Endpoint)) {
            return false;
        }
        Endpoint other = (Endpoint) o;
        return listenerName.equals(other.listenerName) && host.equals(other.host) && port == other.port;
    }

    @Override
    public int hashCode() {
        return Objects.hash(listenerName, host, port);
    }

    @Override
    public String toString() {
        String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return listenerName + "://" + h + ":" + port;
    }
}
