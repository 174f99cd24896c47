package io.millrace.audit.tools;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.audit.AuditConfig;
import io.millrace.common.config.ConfigDef;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Test;

public class AuditConfigDocsTest {

    @Test
    public void theSettingsTableInTheDocsIsGeneratedFromTheCurrentCode() throws Exception {
        String document = Files.readString(Path.of("..", "docs", "audit.md"), StandardCharsets.UTF_8);
        assertEquals("docs/audit.md is stale: run AuditConfigDocs", document, AuditConfigDocs.update(document));
        for (ConfigDef.ConfigKey key : AuditConfig.CONFIG.keys()) {
            assertTrue(key.name, document.contains("`" + key.name + "`"));
        }
    }
}
