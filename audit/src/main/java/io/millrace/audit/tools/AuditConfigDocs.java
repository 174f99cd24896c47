package io.millrace.audit.tools;

import io.millrace.audit.AuditConfig;
import io.millrace.common.config.GeneratedTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Keeps the settings table of docs/audit.md equal to the code ({@link AuditConfig#CONFIG}),
 * between its {@link GeneratedTable} markers. {@code main [docs/audit.md]} rewrites it there, and a
 * test fails when the checked-in table is stale.
 */
public final class AuditConfigDocs {

    private static final GeneratedTable TABLE = new GeneratedTable("audit-config", AuditConfig.CONFIG);

    private AuditConfigDocs() {
    }

    /** The generated block, markers included. */
    public static String block() {
        return TABLE.block();
    }

    /** {@code document} with the text between the markers replaced by the current table. */
    public static String update(String document) {
        return TABLE.update(document);
    }

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args.length > 0 ? args[0] : "docs/audit.md");
        String document = Files.readString(file, StandardCharsets.UTF_8);
        Files.writeString(file, update(document), StandardCharsets.UTF_8);
    }
}
