package io.millrace.hadoop.tools;

import io.millrace.common.config.GeneratedTable;
import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.hive.HiveConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Keeps the settings tables of docs/hadoop.md equal to the code: the loader's ({@link LoadConfig#CONFIG})
 * between {@value #START} and {@value #END}, the Hive tables' own ({@link HiveConfig#CONFIG}) between
 * {@code <!-- hive-config:start -->} and {@code <!-- hive-config:end -->}. {@code main [docs/hadoop.md]}
 * rewrites both there, and tests fail when a checked-in table is stale.
 */
public final class LoadConfigDocs {

    static final String START = "<!-- load-config:start -->";
    static final String END = "<!-- load-config:end -->";

    private static final List<GeneratedTable> TABLES = List.of(new GeneratedTable("load-config", LoadConfig.CONFIG),
        new GeneratedTable("hive-config", HiveConfig.CONFIG));

    private LoadConfigDocs() {
    }

    /** The generated block of the loader's settings, markers included. */
    public static String block() {
        return TABLES.get(0).block();
    }

    /** {@code document} with the text between each pair of markers it has replaced by the current table. */
    public static String update(String document) {
        String updated = document;
        boolean found = false;
        for (GeneratedTable table : TABLES) {
            if (table.isIn(updated)) {
                updated = table.update(updated);
                found = true;
            }
        }
        if (!found) {
            throw new IllegalArgumentException("The document has no " + START + " ... " + END + " block");
        }
        return updated;
    }

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args.length > 0 ? args[0] : "docs/hadoop.md");
        String before = Files.readString(file, StandardCharsets.UTF_8);
        String after = update(before);
        Files.writeString(file, after, StandardCharsets.UTF_8);
        System.out.println(before.equals(after) ? file + " is up to date" : "updated the loader and Hive settings in " + file);
    }
}
