package io.millrace.schemaregistry.tools;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.common.config.ConfigDef;
import io.millrace.schemaregistry.client.SchemaRegistryClientConfig;
import io.millrace.schemaregistry.serde.AvroSerdeConfig;
import io.millrace.schemaregistry.server.SchemaRegistryConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Test;

public class RegistryConfigDocsTest {

    private static final Path DOCS = Path.of("..", "docs", "schema-registry.md");

    @Test
    public void theConfigurationSectionIsGeneratedFromTheCurrentCode() throws IOException {
        String checkedIn = Files.readString(DOCS);
        assertEquals("docs/schema-registry.md is stale: run bin/millrace schema-registry-docs docs/schema-registry.md",
            RegistryConfigDocs.update(checkedIn), checkedIn);
    }

    @Test
    public void everySettingIsDocumented() {
        String docs = RegistryConfigDocs.render() + RegistryConfigDocs.renderSerdes();
        for (ConfigDef def : List.of(SchemaRegistryConfig.CONFIG, SchemaRegistryClientConfig.CONFIG, AvroSerdeConfig.CONFIG)) {
            for (ConfigDef.ConfigKey key : def.keys()) {
                assertTrue(key.name + " is missing", docs.contains("| `" + key.name + "` |"));
                assertTrue(key.name + " has no doc string", !key.documentation.isBlank());
            }
        }
    }

    @Test
    public void updatingReplacesOnlyTheMarkedSection() {
        String updated = RegistryConfigDocs.update("before\n" + RegistryConfigDocs.START + "\nOBSOLETE-1\n" + RegistryConfigDocs.END
            + "\nbetween\n" + RegistryConfigDocs.SERDE_START + "\nOBSOLETE-2\n" + RegistryConfigDocs.SERDE_END + "\nafter\n");
        assertTrue(updated.startsWith("before\n" + RegistryConfigDocs.START + "\n### Server"));
        assertTrue(updated.contains(RegistryConfigDocs.END + "\nbetween\n" + RegistryConfigDocs.SERDE_START + "\n| name |"));
        assertTrue(updated.contains("| `auto.register.schemas` |"));
        assertTrue(updated.endsWith(RegistryConfigDocs.SERDE_END + "\nafter\n"));
        assertTrue(!updated.contains("OBSOLETE"));
        assertThrows(IllegalArgumentException.class, () -> RegistryConfigDocs.update("no markers"));
        assertThrows(IllegalArgumentException.class,
            () -> RegistryConfigDocs.update(RegistryConfigDocs.START + RegistryConfigDocs.END));
    }
}
