package io.millrace.broker.network;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A broker's metrics, grouped and exported through JMX under the {@code io.millrace} domain. A
 * group is {@code io.millrace:type=<type>[,<tag>=<value>...]}; the registry's own tags (e.g.
 * {@code broker=1}) are added to every group so that several brokers can share a JVM. The
 * network layer owns {@code type=socket-server-metrics}; request handling can add e.g.
 * {@code group("request-metrics", Map.of("request", "Produce")).timer("total-time-ms", ...)}.
 *
 * <p>Dependency-free on purpose: counters, gauges and timers are a few lines each over
 * {@code LongAdder}. Thread-safe. {@link #close()} unregisters every group.
 */
public final class MetricsRegistry implements AutoCloseable {

    public static final String DOMAIN = "io.millrace";

    private static final Logger log = LoggerFactory.getLogger(MetricsRegistry.class);

    private final MBeanServer server;
    private final Map<String, String> tags;
    private final Map<ObjectName, MetricGroup> groups = new ConcurrentHashMap<>();

    /** A registry that exports to the platform MBean server. */
    public MetricsRegistry(Map<String, String> tags) {
        this(ManagementFactory.getPlatformMBeanServer(), tags);
    }

    /** A registry exporting to {@code server}, or to nothing if it is null. */
    public MetricsRegistry(MBeanServer server, Map<String, String> tags) {
        this.server = server;
        this.tags = new LinkedHashMap<>(tags);
    }

    public MetricGroup group(String type) {
        return group(type, Map.of());
    }

    /**
     * The group with this type and tags, created and registered with JMX on first use.
     *
     * @throws IllegalStateException if another registry already exported a group of that name
     */
    public MetricGroup group(String type, Map<String, String> groupTags) {
        ObjectName name = objectName(type, groupTags);
        return groups.computeIfAbsent(name, this::register);
    }

    public Collection<MetricGroup> groups() {
        return List.copyOf(groups.values());
    }

    /** Unregisters one group, e.g. when the component that owns it shuts down. */
    public void remove(MetricGroup group) {
        if (groups.remove(group.objectName(), group)) {
            unregister(group.objectName());
        }
    }

    @Override
    public void close() {
        for (MetricGroup group : new ArrayList<>(groups.values())) {
            remove(group);
        }
    }

    private ObjectName objectName(String type, Map<String, String> groupTags) {
        StringBuilder name = new StringBuilder(DOMAIN).append(":type=").append(quoteIfNeeded(type));
        Map<String, String> all = new LinkedHashMap<>(tags);
        all.putAll(groupTags);
        all.forEach((k, v) -> name.append(',').append(k).append('=').append(quoteIfNeeded(v)));
        try {
            return new ObjectName(name.toString());
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("Bad metric group name " + name, e);
        }
    }

    /** Quotes a value only when JMX requires it, so that common names read as Kafka's do. */
    private static String quoteIfNeeded(String value) {
        for (int i = 0; i < value.length(); i++) {
            if (",=:\"*?\n".indexOf(value.charAt(i)) >= 0) {
                return ObjectName.quote(value);
            }
        }
        return value;
    }

    private MetricGroup register(ObjectName name) {
        MetricGroup group = new MetricGroup(name);
        if (server != null) {
            try {
                server.registerMBean(group, name);
            } catch (JMException e) {
                throw new IllegalStateException("Cannot export metrics as " + name
                    + " (is another registry with the same tags open?)", e);
            }
        }
        return group;
    }

    private void unregister(ObjectName name) {
        if (server == null) {
            return;
        }
        try {
            server.unregisterMBean(name);
        } catch (JMException e) {
            log.warn("Could not unregister metrics {}", name, e);
        }
    }
}
