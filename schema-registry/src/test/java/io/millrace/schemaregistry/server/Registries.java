package io.millrace.schemaregistry.server;

import io.millrace.testkit.EmbeddedZooKeeper;
import java.util.HashMap;
import java.util.Map;

/** Registry servers for tests: on a free loopback port, on a given ZooKeeper, with short timeouts. */
public final class Registries {

    private Registries() {
    }

    public static SchemaRegistryServer start(EmbeddedZooKeeper zookeeper, Map<String, Object> overrides) throws InterruptedException {
        return start(zookeeper.connectString(), overrides);
    }

    /** A registry on the ZooKeeper at {@code zookeeperConnect}, e.g. the one inside a broker test cluster. */
    public static SchemaRegistryServer start(String zookeeperConnect, Map<String, Object> overrides) throws InterruptedException {
        Map<String, Object> props = new HashMap<>();
        props.put(SchemaRegistryConfig.LISTENERS_CONFIG, "http://127.0.0.1:0");
        props.put(SchemaRegistryConfig.ZOOKEEPER_CONNECT_CONFIG, zookeeperConnect);
        props.put(SchemaRegistryConfig.ZOOKEEPER_CONNECTION_TIMEOUT_MS_CONFIG, 5_000);
        props.put(SchemaRegistryConfig.ZOOKEEPER_SESSION_TIMEOUT_MS_CONFIG, 10_000);
        props.put(SchemaRegistryConfig.NUM_IO_THREADS_CONFIG, 4);
        props.putAll(overrides);
        return new SchemaRegistryServer(new SchemaRegistryConfig(props)).start();
    }

    public static SchemaRegistryServer start(EmbeddedZooKeeper zookeeper) throws InterruptedException {
        return start(zookeeper, Map.of());
    }
}
