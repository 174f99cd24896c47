package io.millrace.broker.tools;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.common.config.ConfigDef;
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
