package io.millrace.broker.network;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The network layer's metrics, in the {@code socket-server-metrics} group, named as Kafka names
 * them where Kafka has them. Every update is a {@code LongAdder} or atomic operation: safe from
 * any thread and allocation-free.
 *
 * <table>
 * <caption>Attributes</caption>
 * <tr><td>connection-count</td><td>connections open now</td></tr>
 * <tr><td>connection-creation-total, connection-close-total</td><td>connections accepted / closed</td></tr>
 * <tr><td>request-total</td><td>request frames received</td></tr>
 * <tr><td>incoming-byte-total, outgoing-byte-total</td><td>bytes read from / written to sockets</td></tr>
 * <tr><td>requests-on-network-thread-total</td><td>requests the handler carried out on the network thread that read them, without the queue</td></tr>
 * <tr><td>request-queue-time-ms-avg, -max</td><td>from handing a request to the queue until an I/O thread takes it</td></tr>
 * <tr><td>request-queue-size</td><td>requests waiting for an I/O thread</td></tr>
 * <tr><td>requests-in-flight</td><td>requests handed to the queue whose response is not yet written</td></tr>
 * <tr><td>connections-blocked-on-queue</td><td>connections not read from because their next request does not fit in the queue</td></tr>
 * </table>
 */
public final class NetworkMetrics {

    public static final String GROUP = "socket-server-metrics";

    private final MetricGroup group;
    private final AtomicLong connectionCount = new AtomicLong();
    private final Counter connectionsCreated;
    private final Counter connectionsClosed;
    private final Counter requests;
    private final Counter onNetworkThread;
    private final Counter bytesIn;
    private final Counter bytesOut;
    private final Timer queueTime;

    NetworkMetrics(MetricGroup group) {
        this.group = group;
        group.gauge("connection-count", "connections open now", connectionCount::get);
        this.connectionsCreated = group.counter("connection-creation-total", "connections accepted");
        this.connectionsClosed = group.counter("connection-close-total", "connections closed");
        this.requests = group.counter("request-total", "request frames received");
        this.onNetworkThread = group.counter("requests-on-network-thread-total",
            "requests carried out on the network thread that read them, without the request queue");
        this.bytesIn = group.counter("incoming-byte-total", "bytes read from connections");
        this.bytesOut = group.counter("outgoing-byte-total", "bytes of responses written to connections");
        this.queueTime = group.timer("request-queue-time-ms", "the time requests wait for an I/O thread, in ms");
    }

    /** Adds the gauges that read the request queue and the in-flight count. */
    void bindQueue(LongSupplier queueSize, LongSupplier inFlight, LongSupplier blockedConnections) {
        group.gauge("request-queue-size", "requests waiting for an I/O thread", queueSize);
        group.gauge("requests-in-flight", "requests handed to I/O threads whose response is not yet written", inFlight);
        group.gauge("connections-blocked-on-queue", "connections not read from because the request queue is full",
            blockedConnections);
    }

    void bindMemory(LongSupplier used, LongSupplier available, LongSupplier blockedConnections) {
        group.gauge("memory-pool-used", "bytes of requests received or being received (queued.max.request.bytes)", used);
        group.gauge("memory-pool-available", "bytes left for requests; Long.MAX_VALUE when unbounded", available);
        group.gauge("connections-blocked-on-memory", "connections not read from because their next request does not "
            + "fit in queued.max.request.bytes", blockedConnections);
    }

    public MetricGroup group() {
        return group;
    }

    void connectionOpened() {
        connectionCount.incrementAndGet();
        connectionsCreated.increment();
    }

    void connectionClosed() {
        connectionCount.decrementAndGet();
        connectionsClosed.increment();
    }

    void requestReceived() {
        requests.increment();
    }

    void handledOnNetworkThread() {
        onNetworkThread.increment();
    }

    void bytesRead(long n) {
        bytesIn.add(n);
    }

    void bytesWritten(long n) {
        bytesOut.add(n);
    }

    void queueTime(long nanos) {
        queueTime.record(nanos);
    }

    public long connectionCount() {
        return connectionCount.get();
    }

    public long requestTotal() {
        return requests.count();
    }

    /** Requests carried out on the network thread that read them ({@link RequestHandler#handleOnNetworkThread}). */
    public long requestsOnNetworkThread() {
        return onNetworkThread.count();
    }

    public long incomingBytes() {
        return bytesIn.count();
    }

    public long outgoingBytes() {
        return bytesOut.count();
    }

    public Timer queueTime() {
        return queueTime;
    }
}
