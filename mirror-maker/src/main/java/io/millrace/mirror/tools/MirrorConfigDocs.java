package io.millrace.mirror.tools;

import io.millrace.mirror.MirrorMakerConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Keeps the settings table of docs/mirror-maker.md equal to the code ({@link MirrorMakerConfig#CONFIG}),
 * between {@value #START} and {@value #END}. {@code main [docs/mirror-maker.md]} rewrites it there, and a
 * test fails when the checked-in table is stale.
 */
public final class MirrorConfigDocs {

    static final String START = "<!-- mirror-config:start -->";
    static final String END = "<!-- mirror-config:end -->";

    private MirrorConfigDocs() {
    }

    /** The generated block, markers included. */
    public static String block() {
        return START + "\n" + MirrorMakerConfig.CONFIG.toMarkdownTable() + END;
    }

    /** {@code document} with the text between the markers replaced by the current table. */
    public static String update(String document) {
        int start = document.indexOf(START);
        int end = document.indexOf(END);
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("The document has no " + START + " ... " + END + " block");
        }
        return document.substring(0, start) + block() + document.substring(end + END.length());
    }

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args.length > 0 ? args[0] : "docs/mirror-maker.md");
        String document = Files.readString(file, StandardCharsets.UTF_8);
        Files.writeString(file, update(document), StandardCharsets.UTF_8);
    }
}
