package io.millrace.broker.network;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.ObjectName;

/**
 * The metrics of one component, exported as one JMX MBean whose attributes are the metrics
 * (Kafka's layout: {@code io.millrace:type=socket-server-metrics,...} with attributes
 * {@code connection-count}, {@code request-total}, ...). Metrics can be added at any time, so a
 * later component adds its own to a group or to a new one. Thread-safe.
 */
public final class MetricGroup implements DynamicMBean {

    private final ObjectName name;
    private final Map<String, Attr> attributes = new ConcurrentHashMap<>();

    MetricGroup(ObjectName name) {
        this.name = name;
    }

    public ObjectName objectName() {
        return name;
    }

    public Counter counter(String metric, String description) {
        Counter counter = new Counter();
        add(metric, "long", description, counter::count);
        return counter;
    }

    /** Exports {@code <metric>-avg} and {@code <metric>-max}, in milliseconds. */
    public Timer timer(String metric, String description) {
        Timer timer = new Timer();
        add(metric + "-avg", "double", "Mean of " + description, timer::avgMs);
        add(metric + "-max", "double", "Maximum of " + description, timer::maxMs);
        return timer;
    }

    /** A value read when asked for, e.g. the size of a queue. The supplier must be thread-safe. */
    public void gauge(String metric, String description, LongSupplier value) {
        add(metric, "long", description, value::getAsLong);
    }

    /** The current value of one attribute, as JMX would read it; null when there is none. */
    public Object value(String attribute) {
        Attr attr = attributes.get(attribute);
        return attr == null ? null : attr.value.get();
    }

    private void add(String metric, String type, String description, Supplier<Object> value) {
        if (attributes.putIfAbsent(metric, new Attr(type, description, value)) != null) {
            throw new IllegalArgumentException("Metric " + metric + " is already defined in " + name);
        }
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
        Attr attr = attributes.get(attribute);
        if (attr == null) {
            throw new AttributeNotFoundException("No metric " + attribute + " in " + name);
        }
        return attr.value.get();
    }

    @Override
    public AttributeList getAttributes(String[] names) {
        AttributeList list = new AttributeList();
        for (String attribute : names) {
            Attr attr = attributes.get(attribute);
            if (attr != null) {
                list.add(new Attribute(attribute, attr.value.get()));
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
        attributes.forEach((metric, attr) -> infos.add(
            new MBeanAttributeInfo(metric, attr.type, attr.description, true, false, false)));
        infos.sort((a, b) -> a.getName().compareTo(b.getName()));
        return new MBeanInfo(getClass().getName(), "Millrace metrics " + name, infos.toArray(new MBeanAttributeInfo[0]),
            null, null, null);
    }

    private static final class Attr {
        final String type;
        final String description;
        final Supplier<Object> value;

        Attr(String type, String description, Supplier<Object> value) {
            this.type = type;
            this.description = description;
            this.value = value;
        }
    }
}
