package io.millrace.hadoop.tools;

import io.millrace.common.config.ConfigDef;
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

    /** A generated table: the name in its markers and the settings it lists. */
    private record Table(String name, ConfigDef config) {
        String start() {
            return "<!-- " + name + ":start -->";
        }

        String end() {
            return "<!-- " + name + ":end -->";
        }

        String block() {
            return start() + "\n" + config.toMarkdownTable() + end();
        }
    }

    private static final List<Table> TABLES = List.of(new Table("load-config", LoadConfig.CONFIG),
        new Table("hive-config", HiveConfig.CONFIG));

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
        for (Table table : TABLES) {
            int start = updated.indexOf(table.start());
            int end = updated.indexOf(table.end());
            if (start >= 0 && end > start) {
                updated = updated.substring(0, start) + table.block() + updated.substring(end + table.end().length());
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
