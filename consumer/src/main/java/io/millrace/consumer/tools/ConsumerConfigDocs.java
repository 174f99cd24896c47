package io.millrace.consumer.tools;

import io.millrace.common.config.GeneratedTable;
import io.millrace.consumer.ConsumerConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Keeps the settings table of docs/clients.md equal to {@link ConsumerConfig#CONFIG}: the table lives
 * between its {@link GeneratedTable} markers; {@code main [docs/clients.md]} rewrites it there, and a
 * test fails when the checked-in table is stale.
 */
public final class ConsumerConfigDocs {

    private static final GeneratedTable TABLE = new GeneratedTable("consumer-config", ConsumerConfig.CONFIG);

    private ConsumerConfigDocs() {
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
        Path file = Path.of(args.length > 0 ? args[0] : "docs/clients.md");
        String before = Files.readString(file, StandardCharsets.UTF_8);
        String after = update(before);
        Files.writeString(file, after, StandardCharsets.UTF_8);
        System.out.println(before.equals(after) ? file + " is up to date" : "updated the consumer settings in " + file);
    }
}
