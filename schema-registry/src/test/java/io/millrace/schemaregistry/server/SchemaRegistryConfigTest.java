package io.millrace.schemaregistry.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import io.millrace.common.config.ConfigException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.Test;

public class SchemaRegistryConfigTest {

    @Test
    public void defaultsAreConfluentsAndTheIssues() {
        SchemaRegistryConfig config = new SchemaRegistryConfig(Map.of());
        assertEquals(List.of(URI.create("http://0.0.0.0:8081")), config.listeners());
        assertEquals(CompatibilityLevel.BACKWARD, config.defaultCompatibilityLevel());
        assertEquals(1024 * 1024, config.requestMaxBytes());
        assertEquals("127.0.0.1:2181", config.zookeeperConnect());
    }

    @Test
    public void badValuesFailAtStartupNamingTheSetting() {
        for (String listener : List.of("https://h:1", "http://h", "PLAINTEXT://h:9092", "::")) {
            ConfigException e = assertThrows(ConfigException.class,
                () -> new SchemaRegistryConfig(Map.of(SchemaRegistryConfig.LISTENERS_CONFIG, listener)));
            assertEquals(e.getMessage(), true, e.getMessage().contains("listeners"));
        }
        assertThrows(ConfigException.class,
            () -> new SchemaRegistryConfig(Map.of(SchemaRegistryConfig.SCHEMA_COMPATIBILITY_LEVEL_CONFIG, "SIDEWAYS")));
        assertEquals(CompatibilityLevel.FULL_TRANSITIVE, new SchemaRegistryConfig(
            Map.of(SchemaRegistryConfig.SCHEMA_COMPATIBILITY_LEVEL_CONFIG, "FULL_TRANSITIVE")).defaultCompatibilityLevel());
    }
}
