package io.millrace.broker.network;

import io.millrace.common.metrics.ReadOnlyMetrics;
import java.util.function.LongSupplier;
import javax.management.ObjectName;

/**
 * The metrics of one component, exported as one JMX MBean whose attributes are the metrics
 * (Kafka's layout: {@code io.millrace:type=socket-server-metrics,...} with attributes
 * {@code connection-count}, {@code request-total}, ...). Metrics can be added at any time, so a
 * later component adds its own to a group or to a new one. Thread-safe.
 */
public final class MetricGroup extends ReadOnlyMetrics {

    MetricGroup(ObjectName name) {
        super(name, "Millrace metrics " + name);
    }

    public Counter counter(String metric, String description) {
        Counter counter = new Counter();
        define(metric, "long", description, counter::count);
        return counter;
    }

    /** Exports {@code <metric>-avg} and {@code <metric>-max}, in milliseconds. */
    public Timer timer(String metric, String description) {
        Timer timer = new Timer();
        define(metric + "-avg", "double", "Mean of " + description, timer::avgMs);
        define(metric + "-max", "double", "Maximum of " + description, timer::maxMs);
        return timer;
    }

    /** A value read when asked for, e.g. the size of a queue. The supplier must be thread-safe. */
    public void gauge(String metric, String description, LongSupplier value) {
        define(metric, "long", description, value::getAsLong);
    }
}
