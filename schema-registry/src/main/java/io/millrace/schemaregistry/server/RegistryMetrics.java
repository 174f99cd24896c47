package io.millrace.schemaregistry.server;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.LongAdder;
import javax.management.JMException;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Request counters of one registry server, exported through JMX. Thread-safe. */
public final class RegistryMetrics implements RegistryMetricsMBean {

    private static final Logger log = LoggerFactory.getLogger(RegistryMetrics.class);

    private final LongAdder requests = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder storeErrors = new LongAdder();
    private ObjectName name;

    void record(int httpStatus, RegistryError error) {
        requests.increment();
        if (httpStatus >= 400) {
            errors.increment();
        }
        if (error == RegistryError.STORE_ERROR) {
            storeErrors.increment();
        }
    }

    @Override
    public long getRequests() {
        return requests.sum();
    }

    @Override
    public long getErrors() {
        return errors.sum();
    }

    @Override
    public long getStoreErrors() {
        return storeErrors.sum();
    }

    /** Exports the counters; a failure is logged, never fatal (metrics must not stop the registry). */
    synchronized void register(int port) {
        try {
            name = new ObjectName("io.millrace:type=schema-registry,port=" + port);
            ManagementFactory.getPlatformMBeanServer().registerMBean(this, name);
        } catch (JMException e) {
            log.warn("Cannot export the registry's metrics through JMX: {}", e.toString());
            name = null;
        }
    }

    synchronized void unregister() {
        if (name == null) {
            return;
        }
        try {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
        } catch (JMException e) {
            log.debug("Metrics already unregistered: {}", e.toString());
        }
        name = null;
    }
}
