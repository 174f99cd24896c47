package io.millrace.hadoop.tools;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.common.config.ConfigDef;
import io.millrace.hadoop.LoadConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Test;

public class LoadConfigDocsTest {

    private static final Path DOCS = Path.of("..", "docs", "hadoop.md");

    @Test
    public void theSettingsTableIsGeneratedFromTheCurrentCode() throws IOException {
        String checkedIn = Files.readString(DOCS);
        assertEquals("docs/hadoop.md is stale: run io.millrace.hadoop.tools.LoadConfigDocs docs/hadoop.md",
            LoadConfigDocs.update(checkedIn), checkedIn);
    }

    @Test
    public void everySettingIsDocumented() {
        String table = LoadConfigDocs.block();
        for (ConfigDef.ConfigKey key : LoadConfig.CONFIG.keys()) {
            assertTrue(key.name + " is missing", table.contains("| `" + key.name + "` |"));
            assertTrue(key.name + " has no doc string", !key.documentation.isBlank());
        }
    }

    @Test
    public void updatingReplacesOnlyTheMarkedBlock() {
        String updated = LoadConfigDocs.update("before\n" + LoadConfigDocs.START + "\nOBSOLETE\n" + LoadConfigDocs.END + "\nafter\n");
        assertTrue(updated.startsWith("before\n" + LoadConfigDocs.START + "\n| name |"));
        assertTrue(updated.endsWith(LoadConfigDocs.END + "\nafter\n"));
        assertTrue(!updated.contains("OBSOLETE"));
        assertThrows(IllegalArgumentException.class, () -> LoadConfigDocs.update("no markers"));
    }
}
