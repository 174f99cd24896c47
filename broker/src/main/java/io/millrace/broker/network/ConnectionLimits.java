package io.millrace.broker.network;

import io.netty.channel.Channel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka's {@code max.connections}, {@code max.connections.per.ip} and its per-address overrides
 * ({@code max.connections.per.ip.overrides}). A connection beyond its
 * address's limit is closed at once, as Kafka does. Reaching the broker-wide limit stops accepting
 * (the listener stops reading new connections, which wait in the kernel's backlog) until a
 * connection closes, also as Kafka does; one accepted all the same before the pause took effect is
 * closed at once. Thread-safe.
 */
final class ConnectionLimits {

    private static final Logger log = LoggerFactory.getLogger(ConnectionLimits.class);

    private final int maxConnections;
    private final int maxPerIp;
    private final Map<InetAddress, Integer> overrides;
    private final AtomicInteger total = new AtomicInteger();
    private final ConcurrentHashMap<InetAddress, AtomicInteger> perIp = new ConcurrentHashMap<>();

    ConnectionLimits(int maxConnections, int maxPerIp) {
        this(maxConnections, maxPerIp, Map.of());
    }

    ConnectionLimits(int maxConnections, int maxPerIp, Map<InetAddress, Integer> overrides) {
        this.maxConnections = maxConnections;
        this.maxPerIp = maxPerIp;
        this.overrides = Map.copyOf(overrides);
    }

    /** Counts a new connection; false (and the connection closed) when its address has too many. */
    boolean admit(Channel channel) {
        InetAddress address = address(channel.remoteAddress());
        if (address != null) {
            int count = perIp.computeIfAbsent(address, a -> new AtomicInteger()).incrementAndGet();
            int limit = overrides.getOrDefault(address, maxPerIp);
            if (count > limit) {
                release(address);
                log.warn("Closing a connection from {}: it has {} already ({} = {})", address, limit,
                    overrides.containsKey(address) ? "max.connections.per.ip.overrides" : "max.connections.per.ip", limit);
                channel.close();
                return false;
            }
        }
        int open = total.incrementAndGet();
        if (open > maxConnections) {
            // Accepted before the pause below took effect (an edge-triggered epoll listener may accept one more).
            log.warn("Closing a connection from {}: {} are open already (max.connections = {})", address, open - 1,
                maxConnections);
            channel.close();
            total.decrementAndGet();
            if (address != null) {
                release(address);
            }
            return false;
        }
        if (open == maxConnections && channel.parent() != null) {
            log.warn("{} connections open (max.connections = {}): not accepting more until one closes", total.get(),
                maxConnections);
            channel.parent().config().setAutoRead(false);
        }
        channel.closeFuture().addListener(closed -> closed(channel, address));
        return true;
    }

    private void closed(Channel channel, InetAddress address) {
        if (address != null) {
            release(address);
        }
        if (total.decrementAndGet() < maxConnections && channel.parent() != null
                && !channel.parent().config().isAutoRead() && channel.parent().isOpen()) {
            channel.parent().config().setAutoRead(true);
        }
    }

    private void release(InetAddress address) {
        perIp.computeIfPresent(address, (a, count) -> count.decrementAndGet() <= 0 ? null : count);
    }

    private static InetAddress address(SocketAddress remote) {
        return remote instanceof InetSocketAddress socket ? socket.getAddress() : null;
    }
}
