package io.millrace.hadoop.hive;

import io.millrace.schemaregistry.server.SchemaRegistryConfig;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.util.Map;

/** A real schema registry for the tests, set up as the registry's own tests set theirs up: a free loopback port, short timeouts. */
final class TestRegistry {

    private TestRegistry() {
    }

    static SchemaRegistryServer start(EmbeddedZooKeeper zookeeper) throws InterruptedException {
        Map<String, Object> props = Map.of(
            SchemaRegistryConfig.LISTENERS_CONFIG, "http://127.0.0.1:0",
            SchemaRegistryConfig.ZOOKEEPER_CONNECT_CONFIG, zookeeper.connectString(),
            SchemaRegistryConfig.ZOOKEEPER_CONNECTION_TIMEOUT_MS_CONFIG, 5_000,
            SchemaRegistryConfig.ZOOKEEPER_SESSION_TIMEOUT_MS_CONFIG, 10_000,
            SchemaRegistryConfig.NUM_IO_THREADS_CONFIG, 2);
        return new SchemaRegistryServer(new SchemaRegistryConfig(props)).start();
    }
}
