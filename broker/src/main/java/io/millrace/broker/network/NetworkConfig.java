package io.millrace.broker.network;

import io.millrace.common.config.AbstractConfig;
import io.millrace.common.config.ConfigDef;
import io.millrace.common.config.ConfigDef.Importance;
import io.millrace.common.config.ConfigDef.Range;
import io.millrace.common.config.ConfigDef.Type;
import io.millrace.common.config.ConfigDef.Validator;
import io.millrace.common.config.ConfigException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every setting of the broker's network layer, declared once under Kafka's broker names and with
 * Kafka's defaults. A broker-wide configuration adds {@link #CONFIG}'s keys to its own and hands
 * its settings to {@code new NetworkConfig(...)}. Values are parsed and validated in the
 * constructor (a bad listener fails at startup, not at bind time). Immutable and thread-safe.
 */
public final class NetworkConfig extends AbstractConfig {

    public static final String LISTENERS_CONFIG = "listeners";
    static final String LISTENERS_DOC = "The addresses the broker accepts connections on, comma separated, each "
        + "NAME://host:port. An empty host listens on every interface; port 0 takes a free port. Only the "
        + "PLAINTEXT listener exists so far.";

    public static final String ADVERTISED_LISTENERS_CONFIG = "advertised.listeners";
    static final String ADVERTISED_LISTENERS_DOC = "The addresses the broker registers in ZooKeeper, for clients and "
        + "the other brokers to reach it at, when they differ from the listeners' (behind NAT, a proxy or a "
        + "container's port mapping): NAME://host:port, each naming one of the listeners, with a host and a port. "
        + "Empty: the listeners' own, a wildcard or empty host replaced by this machine's name and port 0 by the "
        + "port bound.";

    public static final String SOCKET_REQUEST_MAX_BYTES_CONFIG = "socket.request.max.bytes";
    static final String SOCKET_REQUEST_MAX_BYTES_DOC = "The largest request the broker reads, in bytes, not counting "
        + "the 4-byte size that precedes it. A client that announces a larger (or a negative) size is disconnected.";

    public static final String NUM_NETWORK_THREADS_CONFIG = "num.network.threads";
    static final String NUM_NETWORK_THREADS_DOC = "The number of threads that read requests from and write responses "
        + "to connections (Netty event loops). They never handle requests; num.io.threads does.";

    public static final String NUM_IO_THREADS_CONFIG = "num.io.threads";
    static final String NUM_IO_THREADS_DOC = "The number of threads that handle requests, which may include disk I/O.";

    public static final String QUEUED_MAX_REQUESTS_CONFIG = "queued.max.requests";
    static final String QUEUED_MAX_REQUESTS_DOC = "The number of requests that may wait for a free I/O thread. When the "
        + "queue is full the broker stops reading from connections whose next request does not fit, until it does; "
        + "no request is dropped.";

    public static final String QUEUED_MAX_REQUEST_BYTES_CONFIG = "queued.max.request.bytes";
    static final String QUEUED_MAX_REQUEST_BYTES_DOC = "The most bytes all requests together may hold, counted from "
        + "when a request's size has been read until it has been handled. A connection whose next request does not "
        + "fit stops being read until enough is released; nothing is dropped. -1 (Kafka's default) does not bound "
        + "it; otherwise it must be at least socket.request.max.bytes, so that every request can fit.";

    public static final String SOCKET_SEND_BUFFER_BYTES_CONFIG = "socket.send.buffer.bytes";
    static final String SOCKET_SEND_BUFFER_BYTES_DOC = "The SO_SNDBUF of accepted sockets; -1, the default, leaves "
        + "its size to the OS, which grows it with the connection's bandwidth and round trip (Kafka fixes 102400).";

    public static final String SOCKET_RECEIVE_BUFFER_BYTES_CONFIG = "socket.receive.buffer.bytes";
    static final String SOCKET_RECEIVE_BUFFER_BYTES_DOC = "The SO_RCVBUF of accepted sockets; -1, the default, leaves "
        + "its size to the OS, which grows it with the connection's bandwidth and round trip (Kafka fixes 102400).";

    public static final String CONNECTIONS_MAX_IDLE_MS_CONFIG = "connections.max.idle.ms";
    static final String CONNECTIONS_MAX_IDLE_MS_DOC = "Close a connection that has neither sent a whole request nor been "
        + "answered for this long. Bytes of a request that never completes do not count, so a client trickling a frame "
        + "byte by byte is closed too. A connection with a request in progress is never idle. A negative value "
        + "disables the check.";

    public static final String MAX_CONNECTIONS_CONFIG = "max.connections";
    static final String MAX_CONNECTIONS_DOC = "The most connections the broker holds open at once, over all listeners "
        + "and addresses. At the limit it stops accepting: new connections wait in the listener's backlog until one "
        + "closes.";

    public static final String MAX_CONNECTIONS_PER_IP_CONFIG = "max.connections.per.ip";
    static final String MAX_CONNECTIONS_PER_IP_DOC = "The most connections one client address may hold open at once; "
        + "a connection beyond it is closed as soon as it is accepted.";

    public static final String MAX_CONNECTIONS_PER_IP_OVERRIDES_CONFIG = "max.connections.per.ip.overrides";
    static final String MAX_CONNECTIONS_PER_IP_OVERRIDES_DOC = "Per-address exceptions to max.connections.per.ip, as "
        + "host:count pairs separated by commas, e.g. 10.0.0.7:500,mirror.example.com:1000 (a host name is resolved "
        + "once, at start-up).";

    public static final ConfigDef CONFIG = new ConfigDef()
        .define(LISTENERS_CONFIG, Type.LIST, "PLAINTEXT://127.0.0.1:9092", Validator.described("PLAINTEXT://host:port, ...", NetworkConfig::validateListeners),
            Importance.HIGH, LISTENERS_DOC)
        .define(ADVERTISED_LISTENERS_CONFIG, Type.LIST, "", Importance.HIGH, ADVERTISED_LISTENERS_DOC)
        .define(SOCKET_REQUEST_MAX_BYTES_CONFIG, Type.INT, 100 * 1024 * 1024, Range.atLeast(1), Importance.HIGH,
            SOCKET_REQUEST_MAX_BYTES_DOC)
        .define(NUM_NETWORK_THREADS_CONFIG, Type.INT, 3, Range.atLeast(1), Importance.HIGH, NUM_NETWORK_THREADS_DOC)
        .define(NUM_IO_THREADS_CONFIG, Type.INT, 8, Range.atLeast(1), Importance.HIGH, NUM_IO_THREADS_DOC)
        .define(QUEUED_MAX_REQUESTS_CONFIG, Type.INT, 500, Range.atLeast(1), Importance.HIGH, QUEUED_MAX_REQUESTS_DOC)
        .define(QUEUED_MAX_REQUEST_BYTES_CONFIG, Type.LONG, -1L, Importance.MEDIUM, QUEUED_MAX_REQUEST_BYTES_DOC)
        .define(SOCKET_SEND_BUFFER_BYTES_CONFIG, Type.INT, -1, Range.atLeast(-1), Importance.HIGH,
            SOCKET_SEND_BUFFER_BYTES_DOC)
        .define(SOCKET_RECEIVE_BUFFER_BYTES_CONFIG, Type.INT, -1, Range.atLeast(-1), Importance.HIGH,
            SOCKET_RECEIVE_BUFFER_BYTES_DOC)
        .define(CONNECTIONS_MAX_IDLE_MS_CONFIG, Type.LONG, 10 * 60 * 1000L, Importance.MEDIUM,
            CONNECTIONS_MAX_IDLE_MS_DOC)
        .define(MAX_CONNECTIONS_CONFIG, Type.INT, Integer.MAX_VALUE, Range.atLeast(1), Importance.MEDIUM,
            MAX_CONNECTIONS_DOC)
        .define(MAX_CONNECTIONS_PER_IP_CONFIG, Type.INT, Integer.MAX_VALUE, Range.atLeast(1), Importance.MEDIUM,
            MAX_CONNECTIONS_PER_IP_DOC)
        .define(MAX_CONNECTIONS_PER_IP_OVERRIDES_CONFIG, Type.LIST, "", Importance.MEDIUM,
            MAX_CONNECTIONS_PER_IP_OVERRIDES_DOC);

    private final List<Endpoint> listeners;
    private final List<Endpoint> advertisedListeners;

    public NetworkConfig(Map<?, ?> props) {
        super(CONFIG, props);
        this.listeners = parseListeners(getList(LISTENERS_CONFIG));
        this.advertisedListeners = parseAdvertised(getList(ADVERTISED_LISTENERS_CONFIG), listeners);
        maxConnectionsPerIpOverrides();   // fails at start-up, not at the first connection
        long queuedBytes = queuedMaxRequestBytes();
        if (queuedBytes > 0 && queuedBytes < socketRequestMaxBytes()) {
            throw new ConfigException(QUEUED_MAX_REQUEST_BYTES_CONFIG + " (" + queuedBytes + ") must be -1 or at least "
                + SOCKET_REQUEST_MAX_BYTES_CONFIG + " (" + socketRequestMaxBytes() + "): a request of the largest size "
                + "would never fit");
        }
    }

    public List<Endpoint> listeners() {
        return listeners;
    }

    /** The advertised address of the listener named {@code listenerName}, if {@code advertised.listeners} gives one. */
    public Optional<Endpoint> advertisedListener(String listenerName) {
        return advertisedListeners.stream().filter(e -> e.listenerName().equals(listenerName)).findFirst();
    }

    public int socketRequestMaxBytes() {
        return getInt(SOCKET_REQUEST_MAX_BYTES_CONFIG);
    }

    public int numNetworkThreads() {
        return getInt(NUM_NETWORK_THREADS_CONFIG);
    }

    public int numIoThreads() {
        return getInt(NUM_IO_THREADS_CONFIG);
    }

    /** {@code max.connections.per.ip.overrides}: the limit of each listed address. */
    public Map<InetAddress, Integer> maxConnectionsPerIpOverrides() {
        Map<InetAddress, Integer> overrides = new HashMap<>();
        for (String entry : getList(MAX_CONNECTIONS_PER_IP_OVERRIDES_CONFIG)) {
            int colon = entry.lastIndexOf(':');
            String host = colon > 0 ? entry.substring(0, colon).trim() : "";
            int count;
            try {
                count = Integer.parseInt(entry.substring(colon + 1).trim());
            } catch (NumberFormatException e) {
                count = -1;
            }
            if (host.isEmpty() || count < 0) {
                throw new ConfigException(MAX_CONNECTIONS_PER_IP_OVERRIDES_CONFIG + ": '" + entry
                    + "' is not host:count with a count of 0 or more");
            }
            try {
                overrides.put(InetAddress.getByName(host), count);
            } catch (UnknownHostException e) {
                throw new ConfigException(MAX_CONNECTIONS_PER_IP_OVERRIDES_CONFIG + ": host " + host + " does not resolve");
            }
        }
        return overrides;
    }

    /** {@code queued.max.request.bytes}; zero or less: unbounded. */
    public long queuedMaxRequestBytes() {
        return getLong(QUEUED_MAX_REQUEST_BYTES_CONFIG);
    }

    public int queuedMaxRequests() {
        return getInt(QUEUED_MAX_REQUESTS_CONFIG);
    }

    public int socketSendBufferBytes() {
        return getInt(SOCKET_SEND_BUFFER_BYTES_CONFIG);
    }

    public int socketReceiveBufferBytes() {
        return getInt(SOCKET_RECEIVE_BUFFER_BYTES_CONFIG);
    }

    public long connectionsMaxIdleMs() {
        return getLong(CONNECTIONS_MAX_IDLE_MS_CONFIG);
    }

    public int maxConnections() {
        return getInt(MAX_CONNECTIONS_CONFIG);
    }

    public int maxConnectionsPerIp() {
        return getInt(MAX_CONNECTIONS_PER_IP_CONFIG);
    }

    private static void validateListeners(String name, Object value) {
        parseListeners((List<?>) value);
    }

    private static List<Endpoint> parseAdvertised(List<String> values, List<Endpoint> listeners) {
        List<Endpoint> endpoints = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (String value : values) {
            Endpoint endpoint = Endpoint.parse(ADVERTISED_LISTENERS_CONFIG, value);
            if (listeners.stream().noneMatch(l -> l.listenerName().equals(endpoint.listenerName()))) {
                throw new ConfigException(ADVERTISED_LISTENERS_CONFIG, values, "listener " + endpoint.listenerName()
                    + " is not one of " + LISTENERS_CONFIG);
            }
            if (!names.add(endpoint.listenerName())) {
                throw new ConfigException(ADVERTISED_LISTENERS_CONFIG, values, "listener " + endpoint.listenerName()
                    + " is given twice");
            }
            String host = endpoint.host();
            if (host.isEmpty() || host.equals("0.0.0.0") || host.equals("::") || endpoint.port() == 0) {
                throw new ConfigException(ADVERTISED_LISTENERS_CONFIG, values, "an advertised address needs a host "
                    + "others can reach and a port other than 0");
            }
            endpoints.add(endpoint);
        }
        return List.copyOf(endpoints);
    }

    private static List<Endpoint> parseListeners(List<?> values) {
        if (values.isEmpty()) {
            throw new ConfigException(LISTENERS_CONFIG, values, "at least one listener is needed");
        }
        List<Endpoint> endpoints = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Object value : values) {
            Endpoint endpoint = Endpoint.parse(LISTENERS_CONFIG, String.valueOf(value));
            if (!names.add(endpoint.listenerName())) {
                throw new ConfigException(LISTENERS_CONFIG, values, "listener " + endpoint.listenerName() + " is given twice");
            }
            endpoints.add(endpoint);
        }
        return List.copyOf(endpoints);
    }
}
