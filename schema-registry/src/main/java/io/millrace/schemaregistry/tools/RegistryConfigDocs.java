package io.millrace.schemaregistry.tools;

import io.millrace.schemaregistry.client.SchemaRegistryClientConfig;
import io.millrace.schemaregistry.server.SchemaRegistryConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Renders the registry's settings into docs/schema-registry.md, between the
 * {@value #START} and {@value #END} markers, so the reference can never disagree with the code:
 * {@code bin/millrace schema-registry-docs [FILE]} rewrites that part of the file, and a test
 * fails when the checked-in file is stale.
 */
public final class RegistryConfigDocs {

    public static final String START = "<!-- registry-config:start -->";
    public static final String END = "<!-- registry-config:end -->";

    private RegistryConfigDocs() {
    }

    /** The generated part, markers excluded. */
    public static String render() {
        return "\n### Server (`bin/millrace schema-registry --config FILE`)\n\n"
            + SchemaRegistryConfig.CONFIG.toMarkdownTable()
            + "\n### Client (`SchemaRegistryClient`)\n\n"
            + SchemaRegistryClientConfig.CONFIG.toMarkdownTable();
    }

    /** {@code document} with the text between the markers replaced by {@link #render()}. */
    public static String update(String document) {
        int start = document.indexOf(START);
        int end = document.indexOf(END);
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("The document has no " + START + " ... " + END + " section");
        }
        return document.substring(0, start + START.length()) + render() + document.substring(end);
    }

    /** {@code schema-registry-docs [FILE]}: prints the table, or rewrites FILE's generated section. */
    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.out.print(render());
            return;
        }
        Path file = Path.of(args[0]);
        Files.writeString(file, update(Files.readString(file)));
        System.out.println("updated " + file);
    }
}
