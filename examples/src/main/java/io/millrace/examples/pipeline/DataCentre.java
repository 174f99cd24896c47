package io.millrace.examples.pipeline;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.server.SchemaRegistryConfig;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import java.util.Map;

/**
 * One data centre of the demo on loopback: its own ZooKeeper and brokers ({@link LocalCluster}) and a
 * schema registry of its own on that ZooKeeper, as each data centre of the paper's pipeline runs them.
 */
final class DataCentre implements AutoCloseable {

    private final String name;
    private final LocalCluster cluster;
    private final SchemaRegistryServer registry;

    private DataCentre(String name, LocalCluster cluster, SchemaRegistryServer registry) {
        this.name = name;
        this.cluster = cluster;
        this.registry = registry;
    }

    /**
     * A live data centre: ZooKeeper, {@code brokers} brokers with ids from {@code firstBrokerId} (ids unique
     * across the data centres, as each broker exports its JMX metrics under its id), and a registry handing out
     * schema ids from {@code schemaIdBase}, so that ids of different data centres never collide offline.
     */
    static DataCentre live(String name, int brokers, int firstBrokerId, int schemaIdBase) throws Exception {
        return start(name, brokers, firstBrokerId, schemaIdBase, false);
    }

    /** The offline data centre: its registry in IMPORT mode, keeping the ids of the schemas the mirror copies. */
    static DataCentre offline(String name, int brokers, int firstBrokerId) throws Exception {
        return start(name, brokers, firstBrokerId, 0, true);
    }

    private static DataCentre start(String name, int brokers, int firstBrokerId, int schemaIdBase, boolean importing)
        throws Exception {
        LocalCluster cluster = LocalCluster.start(brokers, Map.of("broker.id", firstBrokerId));
        try {
            SchemaRegistryServer registry = new SchemaRegistryServer(new SchemaRegistryConfig(Map.of(
                SchemaRegistryConfig.LISTENERS_CONFIG, "http://127.0.0.1:0",
                SchemaRegistryConfig.ZOOKEEPER_CONNECT_CONFIG, cluster.zookeeperConnect(),
                SchemaRegistryConfig.SCHEMA_ID_BASE_CONFIG, schemaIdBase))).start();
            if (importing) {
                new SchemaRegistryClient(Map.of("schema.registry.url", registry.urls().get(0))).setMode("IMPORT");
            }
            return new DataCentre(name, cluster, registry);
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    String name() {
        return name;
    }

    LocalCluster cluster() {
        return cluster;
    }

    String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    String zookeeperConnect() {
        return cluster.zookeeperConnect();
    }

    String registryUrl() {
        return registry.urls().get(0);
    }

    @Override
    public void close() {
        try {
            registry.close();
        } finally {
            cluster.close();
        }
    }

    @Override
    public String toString() {
        return name + ": brokers " + bootstrapServers() + ", ZooKeeper " + zookeeperConnect() + ", schema registry "
            + registryUrl();
    }
}
