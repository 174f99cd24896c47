package io.millrace.schemaregistry.tools;

import io.millrace.schemaregistry.client.SchemaRegistryClientConfig;
import io.millrace.schemaregistry.serde.AvroSerdeConfig;
import io.millrace.schemaregistry.server.SchemaRegistryConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Renders the registry's settings into docs/schema-registry.md, between the
 * {@value #START} and {@value #END} markers, and the Avro serdes' settings between
 * {@value #SERDE_START} and {@value #SERDE_END}, so the reference can never disagree with the code:
 * {@code bin/millrace schema-registry-docs [FILE]} rewrites those parts of the file, and a test
 * fails when the checked-in file is stale.
 */
public final class RegistryConfigDocs {

    public static final String START = "<!-- registry-config:start -->";
    public static final String END = "<!-- registry-config:end -->";
    public static final String SERDE_START = "<!-- avro-serde-config:start -->";
    public static final String SERDE_END = "<!-- avro-serde-config:end -->";

    private RegistryConfigDocs() {
    }

    /** The generated part, markers excluded. */
    public static String render() {
        return "\n### Server (`bin/millrace schema-registry --config FILE`)\n\n"
            + SchemaRegistryConfig.CONFIG.toMarkdownTable()
            + "\n### Client (`SchemaRegistryClient`)\n\n"
            + SchemaRegistryClientConfig.CONFIG.toMarkdownTable();
    }

    /** The generated serde part, markers excluded. */
    public static String renderSerdes() {
        return "\n" + AvroSerdeConfig.CONFIG.toMarkdownTable();
    }

    /** {@code document} with the text between each pair of markers replaced by {@link #render()} and {@link #renderSerdes()}. */
    public static String update(String document) {
        return replace(replace(document, START, END, render()), SERDE_START, SERDE_END, renderSerdes());
    }

    private static String replace(String document, String startMarker, String endMarker, String content) {
        int start = document.indexOf(startMarker);
        int end = document.indexOf(endMarker);
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("The document has no " + startMarker + " ... " + endMarker + " section");
        }
        return document.substring(0, start + startMarker.length()) + content + document.substring(end);
    }

    /** {@code schema-registry-docs [FILE]}: prints the tables, or rewrites FILE's generated sections. */
    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.out.print(render() + "\n### Avro serializers and deserializers\n" + renderSerdes());
            return;
        }
        Path file = Path.of(args[0]);
        Files.writeString(file, update(Files.readString(file)));
        System.out.println("updated " + file);
    }
}
