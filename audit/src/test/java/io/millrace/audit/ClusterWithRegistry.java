package io.millrace.audit;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.schemaregistry.server.SchemaRegistryConfig;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import java.util.Map;
import org.junit.rules.ExternalResource;

/**
 * A one-broker Millrace cluster and a schema registry keeping its schemas in the cluster's ZooKeeper:
 * what every audit tier needs to publish. A JUnit rule ({@code @ClassRule}), or closed by hand.
 */
public final class ClusterWithRegistry extends ExternalResource implements AutoCloseable {

    private LocalCluster cluster;
    private SchemaRegistryServer registry;

    public ClusterWithRegistry start() throws Exception {
        cluster = LocalCluster.start(1, Map.of());
        registry = new SchemaRegistryServer(new SchemaRegistryConfig(Map.of(
            SchemaRegistryConfig.LISTENERS_CONFIG, "http://127.0.0.1:0",
            SchemaRegistryConfig.ZOOKEEPER_CONNECT_CONFIG, cluster.zookeeperConnect()))).start();
        return this;
    }

    public LocalCluster cluster() {
        return cluster;
    }

    public String registryUrl() {
        return registry.urls().get(0);
    }

    @Override
    protected void before() throws Throwable {
        start();
    }

    @Override
    protected void after() {
        close();
    }

    @Override
    public void close() {
        if (registry != null) {
            registry.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }
}
