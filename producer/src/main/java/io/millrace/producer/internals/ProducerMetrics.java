package io.millrace.producer.internals;

import io.millrace.common.utils.Time;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The producer's metrics, one JMX MBean {@code io.millrace.producer:type=producer-metrics,client-id=<id>}
 * whose attributes carry Kafka's producer metric names where the meaning is the same. Times are in
 * milliseconds unless the name ends in {@code -ns-total}. Thread-safe; recording never allocates.
 */
public final class ProducerMetrics implements DynamicMBean {

    private static final Logger log = LoggerFactory.getLogger(ProducerMetrics.class);
    private static final double NANOS_PER_MS = 1_000_000.0;

    private final ObjectName name;
    private final Map<String, Metric> metrics = new ConcurrentHashMap<>();
    private final DurationStat recordQueueTime = new DurationStat();
    private final DurationStat requestLatency = new DurationStat();
    private final DurationStat batchSize = new DurationStat();
    private final DurationStat sendBlocked = new DurationStat();
    private final LongAdder metadataWaitNanos = new LongAdder();
    private final RecentRate recordsSent;
    private final RecentRate recordErrors;
    private boolean registered;

    public ProducerMetrics(String clientId, Time time) {
        this.name = objectName(clientId);
        this.recordsSent = new RecentRate(time);
        this.recordErrors = new RecentRate(time);
        define("record-queue-time-avg", "Mean ms a batch waited in the accumulator before it was first sent",
            () -> recordQueueTime.avg(1.0));
        define("record-queue-time-max", "Longest ms a batch waited in the accumulator before it was first sent",
            () -> recordQueueTime.max(1.0));
        define("request-latency-avg", "Mean ms from sending a produce request to its answer", () -> requestLatency.avg(NANOS_PER_MS));
        define("request-latency-max", "Longest ms from sending a produce request to its answer", () -> requestLatency.max(NANOS_PER_MS));
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

    public ObjectName objectName() {
        return name;
    }

    /** Registers the MBean; a second producer with the same client id goes without (and says so). */
    public synchronized void register() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            server.registerMBean(this, name);
            registered = true;
        } catch (JMException e) {
            log.warn("Producer metrics not registered as {}: {}", name, e.toString());
        }
    }

    public synchronized void unregister() {
        if (!registered) {
            return;
        }
        registered = false;
        try {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
        } catch (JMException e) {
            log.warn("Could not unregister {}: {}", name, e.toString());
        }
    }

    /** The current value of one metric; null when there is none. */
    public Object value(String metric) {
        Metric m = metrics.get(metric);
        return m == null ? null : m.value.get();
    }

    private void define(String metric, String description, Supplier<Object> value) {
        metrics.put(metric, new Metric(description, value));
    }

    private static ObjectName objectName(String clientId) {
        try {
            return new ObjectName("io.millrace.producer:type=producer-metrics,client-id="
                + (clientId.matches("[^,=:\"*?\\n]*") ? clientId : ObjectName.quote(clientId)));
        } catch (JMException e) {
            throw new IllegalArgumentException("Invalid client id for a metric name: " + clientId, e);
        }
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
        Metric metric = metrics.get(attribute);
        if (metric == null) {
            throw new AttributeNotFoundException("No metric " + attribute + " in " + name);
        }
        return metric.value.get();
    }

    @Override
    public AttributeList getAttributes(String[] names) {
        AttributeList list = new AttributeList();
        for (String attribute : names) {
            Metric metric = metrics.get(attribute);
            if (metric != null) {
                list.add(new Attribute(attribute, metric.value.get()));
            }
        }
        return list;
    }

    @Override
    public void setAttribute(Attribute attribute) {
        throw new UnsupportedOperationException("Metrics are read-only");
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
        throw new UnsupportedOperationException("Metrics are read-only");
    }

    @Override
    public Object invoke(String actionName, Object[] params, String[] signature) {
        throw new UnsupportedOperationException("Metrics have no operations");
    }

    @Override
    public MBeanInfo getMBeanInfo() {
        List<MBeanAttributeInfo> infos = new ArrayList<>();
        metrics.forEach((metric, m) -> infos.add(new MBeanAttributeInfo(metric, m.value.get().getClass().getName(),
            m.description, true, false, false)));
        infos.sort((a, b) -> a.getName().compareTo(b.getName()));
        return new MBeanInfo(getClass().getName(), "Millrace producer metrics", infos.toArray(new MBeanAttributeInfo[0]),
            null, null, null);
    }

    private record Metric(String description, Supplier<Object> value) {
    }
}
