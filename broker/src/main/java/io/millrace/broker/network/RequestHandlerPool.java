package io.millrace.broker.network;

import io.millrace.common.utils.Time;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code num.io.threads} request threads and the bounded queue in front of them
 * ({@code queued.max.requests}), Kafka's {@code RequestChannel} + {@code KafkaRequestHandlerPool}.
 *
 * <p><b>Back-pressure without blocking a network thread.</b> Kafka's network threads block on a
 * full queue. Ours must not, so {@link #offer} fails instead and the connection
 * {@link #awaitSpace waits}: it stays unread (its frame kept, not dropped) and is called back
 * through {@link ConnectionHandler#queueSpaceAvailable()} when a request thread takes a request
 * off the queue, one waiting connection per request taken. A connection that waits re-checks the
 * queue after registering, so a slot freed in between is not missed.
 *
 * <p>Thread-safe.
 */
final class RequestHandlerPool {

    /** How long an idle request thread waits before it looks at whether the pool is stopping. */
    private static final long IDLE_POLL_MS = 100;

    private static final Logger log = LoggerFactory.getLogger(RequestHandlerPool.class);

    private final BlockingQueue<ChannelRequestContext> queue;
    private final Queue<ConnectionHandler> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicInteger waitingCount = new AtomicInteger();
    private final RequestHandler handler;
    private final Time time;
    private final NetworkMetrics metrics;
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;

    RequestHandlerPool(int threadCount, int queueCapacity, RequestHandler handler, Time time, NetworkMetrics metrics) {
        this.queue = new ArrayBlockingQueue<>(queueCapacity);
        this.handler = handler;
        this.time = time;
        this.metrics = metrics;
        for (int i = 0; i < threadCount; i++) {
            threads.add(new Thread(this::run, "millrace-request-handler-" + i));
        }
    }

    void start() {
        threads.forEach(Thread::start);
    }

    /** Queues a request if there is room; never blocks. */
    boolean offer(ChannelRequestContext request) {
        return running && queue.offer(request);
    }

    /** Registers a connection whose request did not fit; it is called back when room may have appeared. */
    void awaitSpace(ConnectionHandler connection) {
        waiting.add(connection);
        waitingCount.incrementAndGet();
        if (queue.remainingCapacity() > 0) {
            wakeOne();
        }
    }

    /** Forgets a closed connection; if it was already called back, it passes the wake-up on. */
    void stopWaiting(ConnectionHandler connection) {
        if (waiting.remove(connection)) {
            waitingCount.decrementAndGet();
        }
    }

    /** Calls back one waiting connection, if any. */
    void wakeOne() {
        ConnectionHandler next = waiting.poll();
        if (next != null) {
            waitingCount.decrementAndGet();
            next.queueSpaceAvailable();
        }
    }

    int queueSize() {
        return queue.size();
    }

    int waitingConnections() {
        return waitingCount.get();
    }

    private void run() {
        while (running) {
            ChannelRequestContext request;
            try {
                // Polled, not taken: shutdown must never interrupt these threads, since an interrupt
                // that lands inside FileChannel I/O closes the channel (and with it the log).
                request = queue.poll(IDLE_POLL_MS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                continue;
            }
            if (request == null) {
                continue;
            }
            wakeOne();
            metrics.queueTime(time.nanoseconds() - request.enqueueTimeNanos());
            handle(request);
        }
    }

    private void handle(ChannelRequestContext request) {
        try {
            handler.handle(request, request.payload());
        } catch (Throwable t) {
            log.error("Request handler failed on connection {}; closing it", request.connectionId(), t);
            request.closeAfterFailure();
        }
    }

    /**
     * Stops the threads, waiting for them up to {@code timeoutMs} (real time); requests still
     * queued are abandoned (their payloads released). A handler still running when this returns
     * may complete its request later; the completion is released as a failure.
     */
    void shutdown(long timeoutMs) throws InterruptedException {
        running = false;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        for (Thread thread : threads) {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (thread.isAlive()) {
                log.warn("Request thread {} is still running a request after shutdown", thread.getName());
            }
        }
        List<ChannelRequestContext> abandoned = new ArrayList<>();
        queue.drainTo(abandoned);
        abandoned.forEach(ChannelRequestContext::abandon);
        ConnectionHandler connection;
        while ((connection = waiting.poll()) != null) {
            waitingCount.decrementAndGet();
        }
    }
}
