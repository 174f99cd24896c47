package io.millrace.broker.tools;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.server.BrokerConfig;
import io.millrace.common.config.ConfigDef;
import java.io.Reader;
import java.util.Properties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Test;

public class ConfigDocsTest {

    @Test
    public void configurationDocsAreGeneratedFromTheCurrentCode() throws IOException {
        String checkedIn = Files.readString(Path.of("..", "docs", "configuration.md"));
        assertEquals("docs/configuration.md is stale: run bin/millrace config-docs docs/configuration.md",
            ConfigDocs.render(), checkedIn);
    }

    @Test
    public void theBrokerPropertiesFileIsGeneratedFromTheCurrentCode() throws IOException {
        String checkedIn = Files.readString(Path.of("..", "config", "broker.properties"));
        assertEquals("config/broker.properties is stale: run bin/millrace config-docs docs/configuration.md config/broker.properties",
            BrokerConfig.toPropertiesFile(), checkedIn);
    }

    @Test
    public void theBrokerPropertiesFileIsAValidConfiguration() throws IOException {
        Properties props = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of("..", "config", "broker.properties"))) {
            props.load(in);
        }
        assertEquals(0, new BrokerConfig(props).brokerId());
    }

    @Test
    public void everyDeclaredSettingIsDocumented() {
        String docs = ConfigDocs.render();
        for (ConfigDef def : ConfigDocs.sections().values()) {
            for (ConfigDef.ConfigKey key : def.keys()) {
                assertTrue(key.name + " is missing", docs.contains("| `" + key.name + "` |"));
                assertTrue(key.name + " has no doc string", !key.documentation.isBlank());
            }
        }
    }
}
