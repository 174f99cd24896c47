package io.millrace.hadoop.tools;

import io.millrace.hadoop.LoadConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Keeps the settings table of docs/hadoop.md equal to {@link LoadConfig#CONFIG}: the table lives between
 * {@value #START} and {@value #END}; {@code main [docs/hadoop.md]} rewrites it there, and a test fails
 * when the checked-in table is stale.
 */
public final class LoadConfigDocs {

    static final String START = "<!-- load-config:start -->";
    static final String END = "<!-- load-config:end -->";

    private LoadConfigDocs() {
    }

    /** The generated block, markers included. */
    public static String block() {
        return START + "\n" + LoadConfig.CONFIG.toMarkdownTable() + END;
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
        Path file = Path.of(args.length > 0 ? args[0] : "docs/hadoop.md");
        String before = Files.readString(file, StandardCharsets.UTF_8);
        String after = update(before);
        Files.writeString(file, after, StandardCharsets.UTF_8);
        System.out.println(before.equals(after) ? file + " is up to date" : "updated the loader settings in " + file);
    }
}
