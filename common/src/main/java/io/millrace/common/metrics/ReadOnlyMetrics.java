package io.millrace.common.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.ObjectName;

/**
 * One JMX MBean whose attributes are metrics, each read from its supplier when asked for: the
 * broker's metric groups and the producer's metrics both export through it. Read-only, no
 * operations. Metrics may be added at any time. Thread-safe.
 */
public class ReadOnlyMetrics implements DynamicMBean {

    private final ObjectName name;
    private final String description;
    private final Map<String, Metric> metrics = new ConcurrentHashMap<>();

    private record Metric(String type, String description, Supplier<Object> value) {
    }

    protected ReadOnlyMetrics(ObjectName name, String description) {
        this.name = name;
        this.description = description;
    }

    public ObjectName objectName() {
        return name;
    }

    /**
     * Adds a metric. {@code type} is the JMX attribute type ({@code "long"}, {@code "double"});
     * null takes the class of the first value read. The supplier must be thread-safe.
     *
     * @throws IllegalArgumentException if the metric is already defined
     */
    protected final void define(String metric, String type, String metricDescription, Supplier<Object> value) {
        if (metrics.putIfAbsent(metric, new Metric(type, metricDescription, value)) != null) {
            throw new IllegalArgumentException("Metric " + metric + " is already defined in " + name);
        }
    }

    /** The current value of one metric, as JMX would read it; null when there is none. */
    public Object value(String metric) {
        Metric m = metrics.get(metric);
        return m == null ? null : m.value().get();
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
        Metric m = metrics.get(attribute);
        if (m == null) {
            throw new AttributeNotFoundException("No metric " + attribute + " in " + name);
        }
        return m.value().get();
    }

    @Override
    public AttributeList getAttributes(String[] names) {
        AttributeList list = new AttributeList();
        for (String attribute : names) {
            Metric m = metrics.get(attribute);
            if (m != null) {
                list.add(new Attribute(attribute, m.value().get()));
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
        metrics.forEach((metric, m) -> infos.add(new MBeanAttributeInfo(metric,
            m.type() != null ? m.type() : m.value().get().getClass().getName(), m.description(), true, false, false)));
        infos.sort((a, b) -> a.getName().compareTo(b.getName()));
        return new MBeanInfo(getClass().getName(), description, infos.toArray(new MBeanAttributeInfo[0]),
            null, null, null);
    }
}
