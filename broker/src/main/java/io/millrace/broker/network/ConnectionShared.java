package io.millrace.broker.network;

import io.millrace.common.utils.Time;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** What every connection of one {@link NetworkServer} shares. Immutable references; the referents are thread-safe. */
final class ConnectionShared {

    final RequestHandlerPool pool;
    /** The same handler the pool's threads call, offered each request on the network thread first. */
    final RequestHandler handler;
    final InFlightRequests inFlight;
    final NetworkMetrics metrics;
    final Time time;
    /** {@code connections.max.idle.ms} in nanoseconds; negative disables idle closing. */
    final long maxIdleNanos;
    final ConnectionLimits limits;
    final RequestMemory memory;
    /** Every open connection, so that shutdown can stop and close them; closed ones leave by themselves. */
    final ChannelGroup connections = new DefaultChannelGroup("millrace-connections", GlobalEventExecutor.INSTANCE);
    private final AtomicLong connectionIndex = new AtomicLong();

    ConnectionShared(RequestHandlerPool pool, RequestHandler handler, InFlightRequests inFlight, NetworkMetrics metrics, Time time,
                     long maxIdleMs, ConnectionLimits limits, RequestMemory memory) {
        this.limits = limits;
        this.memory = memory;
        this.pool = pool;
        this.handler = handler;
        this.inFlight = inFlight;
        this.metrics = metrics;
        this.time = time;
        this.maxIdleNanos = maxIdleMs < 0 ? -1 : TimeUnit.MILLISECONDS.toNanos(maxIdleMs);
    }

    long nextConnectionIndex() {
        return connectionIndex.getAndIncrement();
    }
}
