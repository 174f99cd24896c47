package io.millrace.producer.tools;

import io.millrace.producer.ProducerConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Keeps the producer's settings table in the clients documentation generated from
 * {@link ProducerConfig#CONFIG}: the table sits between two marker comments, and
 * {@code main(docs/clients.md)} rewrites what is between them. A test fails when it is stale.
 */
public final class ProducerConfigDocs {

    public static final String START = "<!-- producer-config:start -->";
    public static final String END = "<!-- producer-config:end -->";

    private ProducerConfigDocs() {
    }

    /** The text that belongs between the markers. */
    public static String table() {
        return "\n" + ProducerConfig.CONFIG.toMarkdownTable();
    }

    /** What is between the markers in {@code document} now. */
    public static String currentTable(String document) {
        int start = document.indexOf(START);
        int end = document.indexOf(END);
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("The document has no " + START + " ... " + END + " section");
        }
        return document.substring(start + START.length(), end);
    }

    /** {@code document} with the generated table between the markers. */
    public static String withCurrentTable(String document) {
        int start = document.indexOf(START) + START.length();
        return document.substring(0, start) + table() + document.substring(document.indexOf(END));
    }

    /** Rewrites the table in the given file (docs/clients.md), or prints it without an argument. */
    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.out.print(ProducerConfig.CONFIG.toMarkdownTable());
            return;
        }
        Path file = Path.of(args[0]);
        Files.writeString(file, withCurrentTable(Files.readString(file)));
        System.out.println("wrote the producer settings table in " + file);
    }
}
