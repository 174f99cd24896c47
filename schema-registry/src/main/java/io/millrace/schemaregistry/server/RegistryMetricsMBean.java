package io.millrace.schemaregistry.server;

/** What a registry server exports through JMX, as {@code io.millrace:type=schema-registry,port=<port>}. */
public interface RegistryMetricsMBean {

    /** Every request answered, errors included. */
    long getRequests();

    /** Requests answered with a 4xx or 5xx status. */
    long getErrors();

    /** Requests that failed because ZooKeeper did (50001). */
    long getStoreErrors();
}
