package io.millrace.consumer.tools;

import io.millrace.consumer.ConsumerConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Keeps the settings table of docs/clients.md equal to {@link ConsumerConfig#CONFIG}: the table lives
 * between {@value #START} and {@value #END}; {@code main [docs/clients.md]} rewrites it there, and a
 * test fails when the checked-in table is stale.
 */
public final class ConsumerConfigDocs {

    static final String START = "<!-- consumer-config:start -->";
    static final String END = "<!-- consumer-config:end -->";

    private ConsumerConfigDocs() {
    }

    /** The generated block, markers included. */
    public static String block() {
        return START + "\n" + ConsumerConfig.CONFIG.toMarkdownTable() + END;
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
        Path file = Path.of(args.length > 0 ? args[0] : "docs/clients.md");
        String before = Files.readString(file, StandardCharsets.UTF_8);
        String after = update(before);
        Files.writeString(file, after, StandardCharsets.UTF_8);
        System.out.println(before.equals(after) ? file + " is up to date" : "updated the consumer settings in " + file);
    }
}
