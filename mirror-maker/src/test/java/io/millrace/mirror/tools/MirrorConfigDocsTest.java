package io.millrace.mirror.tools;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.common.config.ConfigDef;
import io.millrace.mirror.MirrorMakerConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Test;

public class MirrorConfigDocsTest {

    @Test
    public void theSettingsTableInTheDocsIsGeneratedFromTheCurrentCode() throws Exception {
        String document = Files.readString(Path.of("..", "docs", "mirror-maker.md"), StandardCharsets.UTF_8);
        assertEquals("docs/mirror-maker.md is stale: run MirrorConfigDocs", document, MirrorConfigDocs.update(document));
        for (ConfigDef.ConfigKey key : MirrorMakerConfig.CONFIG.keys()) {
            assertTrue(key.name, document.contains("`" + key.name + "`"));
        }
    }
}
