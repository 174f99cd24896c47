package io.millrace.hadoop.hive;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.common.config.ConfigDef;
import io.millrace.hadoop.LoadConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Test;

/** docs/hadoop.md lists every Hive setting as HiveConfig declares it, and none of the loader's. */
public class HiveConfigDocsTest {

    private static final Path DOCS = Path.of("..", "docs", "hadoop.md");
    private static final String START = "<!-- hive-config:start -->\n";
    private static final String END = "<!-- hive-config:end -->";

    @Test
    public void theSettingsTableIsTheOneTheCodeDeclares() throws IOException {
        String docs = Files.readString(DOCS);
        int start = docs.indexOf(START);
        int end = docs.indexOf(END);
        assertTrue("docs/hadoop.md has no " + START.trim() + " ... " + END + " section", start >= 0 && end > start);
        assertEquals("docs/hadoop.md is stale: run io.millrace.hadoop.tools.LoadConfigDocs docs/hadoop.md",
            HiveConfig.CONFIG.toMarkdownTable(), docs.substring(start + START.length(), end));
    }

    /** Where the data is, and how its hours are named, are the loader's settings: declared once, in LoadConfig. */
    @Test
    public void noSettingOfTheLoaderIsDeclaredAgain() {
        for (ConfigDef.ConfigKey key : HiveConfig.CONFIG.keys()) {
            assertTrue(key.name + " is the loader's", LoadConfig.CONFIG.key(key.name) == null);
        }
    }

    @Test
    public void everySettingSaysWhatItDoes() {
        for (ConfigDef.ConfigKey key : HiveConfig.CONFIG.keys()) {
            assertTrue(key.name, key.documentation != null && key.documentation.length() > 20);
        }
    }
}
