package io.millrace.mirror.tools;

import io.millrace.common.config.GeneratedTable;
import io.millrace.mirror.MirrorMakerConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Keeps the settings table of docs/mirror-maker.md equal to the code ({@link MirrorMakerConfig#CONFIG}),
 * between its {@link GeneratedTable} markers. {@code main [docs/mirror-maker.md]} rewrites it there, and a
 * test fails when the checked-in table is stale.
 */
public final class MirrorConfigDocs {

    private static final GeneratedTable TABLE = new GeneratedTable("mirror-config", MirrorMakerConfig.CONFIG);

    private MirrorConfigDocs() {
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
        Path file = Path.of(args.length > 0 ? args[0] : "docs/mirror-maker.md");
        String document = Files.readString(file, StandardCharsets.UTF_8);
        Files.writeString(file, update(document), StandardCharsets.UTF_8);
    }
}
