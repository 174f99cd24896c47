package io.millrace.producer.internals;

import io.millrace.common.metrics.ReadOnlyMetrics;
import io.millrace.common.metrics.RecentRate;
import io.millrace.common.utils.Time;
import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The producer's metrics, one JMX MBean {@code io.millrace.producer:type=producer-metrics,client-id=<id>}
 * whose attributes carry Kafka's producer metric names where the meaning is the same. Times are in
 * milliseconds unless the name ends in {@code -ns-total}. Thread-safe; recording never allocates.
 */
public final class ProducerMetrics extends ReadOnlyMetrics {

    private static final Logger log = LoggerFactory.getLogger(ProducerMetrics.class);
    private static final double NANOS_PER_MS = 1_000_000.0;

    private final DurationStat recordQueueTime = new DurationStat();
    private final DurationStat requestLatency = new DurationStat();
    private final DurationStat batchSize = new DurationStat();
    private final DurationStat sendBlocked = new DurationStat();
    private final LongAdder metadataWaitNanos = new LongAdder();
    private final LongAdder requestsSent = new LongAdder();
    private final LongAdder recordsInRequests = new LongAdder();
    private final RecentRate recordsSent;
    private final RecentRate recordErrors;
    private boolean registered;

    public ProducerMetrics(String clientId, Time time) {
        super(objectName(clientId), "Millrace producer metrics");
        this.recordsSent = new RecentRate(time);
        this.recordErrors = new RecentRate(time);
        define("record-queue-time-avg", "Mean ms a batch waited in the accumulator before it was first sent",
            () -> recordQueueTime.avg(1.0));
        define("record-queue-time-max", "Longest ms a batch waited in the accumulator before it was first sent",
            () -> recordQueueTime.max(1.0));
        define("request-latency-avg", "Mean ms from sending a produce request to its answer", () -> requestLatency.avg(NANOS_PER_MS));
        define("request-latency-max", "Longest ms from sending a produce request to its answer", () -> requestLatency.max(NANOS_PER_MS));
        define("records-per-request-avg", "Mean records per produce request sent, retries included",
            this::recordsPerRequest);
        define("batch-size-avg", "Mean bytes of the batches sent", () -> batchSize.avg(1.0));
        define("batch-size-max", "Largest batch sent, in bytes", () -> batchSize.max(1.0));
        define("record-send-rate", "Records acknowledged per second, over the last 30 to 60 s", recordsSent::perSecond);
        define("record-send-total", "Records acknowledged", recordsSent::total);
        define("record-error-rate", "Records that failed per second, over the last 30 to 60 s", recordErrors::perSecond);
        define("record-error-total", "Records that failed", recordErrors::total);
        define("send-block-time-ns-total", "Nanoseconds send() blocked, waiting for metadata or buffer memory",
            () -> sendBlocked.total() + metadataWaitNanos.sum());
        define("send-block-time-max", "Longest ms one wait of send() for metadata or buffer memory lasted",
            () -> sendBlocked.max(NANOS_PER_MS));
        define("metadata-wait-time-ns-total", "Nanoseconds send() waited for topic metadata", metadataWaitNanos::sum);
    }

    /** Adds the buffer pool's gauges once the pool exists. */
    public void bufferPool(BufferPool pool) {
        define("buffer-total-bytes", "buffer.memory: the bytes batches may hold", pool::totalMemory);
        define("buffer-available-bytes", "Bytes of buffer memory not held by batches", pool::availableMemory);
        define("bufferpool-wait-time-ns-total", "Nanoseconds send() waited for buffer memory", pool::waitTimeNanosTotal);
        define("bufferpool-wait-time-total", "Nanoseconds send() waited for buffer memory (older name)", pool::waitTimeNanosTotal);
        define("waiting-threads", "Threads blocked in send() waiting for buffer memory", pool::queued);
    }

    /** A batch leaves the accumulator for the first time, after {@code queuedMs}, with {@code bytes}. */
    void recordBatchSent(long queuedMs, int bytes) {
        recordQueueTime.record(queuedMs);
        batchSize.record(bytes);
    }

    /** A produce request with {@code records} in its batches goes out. */
    void recordRequestSent(int records) {
        requestsSent.increment();
        recordsInRequests.add(records);
    }

    private double recordsPerRequest() {
        long requests = requestsSent.sum();
        return requests == 0 ? 0.0 : recordsInRequests.sum() / (double) requests;
    }

    void recordRequestLatency(long nanos) {
        requestLatency.record(nanos);
    }

    /** A batch of {@code records} completed, successfully or not. */
    void recordCompletion(int records, boolean failed) {
        (failed ? recordErrors : recordsSent).record(records);
    }

    /** A send that failed before reaching a batch. */
    public void recordError() {
        recordErrors.record(1);
    }

    void recordSendBlocked(long nanos) {
        sendBlocked.record(nanos);
    }

    public void recordMetadataWait(long nanos) {
        metadataWaitNanos.add(nanos);
        sendBlocked.record(nanos);
    }

    /** Registers the MBean; a second producer with the same client id goes without (and says so). */
    public synchronized void register() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            server.registerMBean(this, objectName());
            registered = true;
        } catch (JMException e) {
            log.warn("Producer metrics not registered as {}: {}", objectName(), e.toString());
        }
    }

    public synchronized void unregister() {
        if (!registered) {
            return;
        }
        registered = false;
        try {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(objectName());
        } catch (JMException e) {
            log.warn("Could not unregister {}: {}", objectName(), e.toString());
        }
    }

    private void define(String metric, String description, Supplier<Object> value) {
        define(metric, null, description, value);
    }

    private static ObjectName objectName(String clientId) {
        try {
            return new ObjectName("io.millrace.producer:type=producer-metrics,client-id="
                + (clientId.matches("[^,=:\"*?\\n]*") ? clientId : ObjectName.quote(clientId)));
        } catch (JMException e) {
            throw new IllegalArgumentException("Invalid client id for a metric name: " + clientId, e);
        }
    }
}
