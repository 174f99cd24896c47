package io.millrace.schemaregistry.server;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/**
 * Parsing and comparing schemas. Two schemas are the same when Avro writes them out the same:
 * {@link Schema#toString()} of the parsed schema, which drops whitespace and JSON attribute order
 * and spells primitive types one way. That form keeps defaults, docs and aliases, unlike Avro's
 * Parsing Canonical Form: two schemas that differ only in a field's default read data
 * differently, so they must not share an id.
 */
public final class AvroSchemas {

    private AvroSchemas() {
    }

    /** The schema in {@code text}, or INVALID_SCHEMA (422 / 42201) saying why it is not one. */
    public static Schema parse(String text) {
        if (text == null || text.isBlank()) {
            throw RegistryError.INVALID_SCHEMA.exception("Empty schema");
        }
        try {
            return new Schema.Parser().setValidateDefaults(true).parse(text);
        } catch (SchemaParseException | IllegalArgumentException e) {
            JsonProcessingException json = jsonError(e);
            if (json != null) {
                // Avro's message is the JSON parser's exception as a string: its class name and a redacted source
                JsonLocation at = json.getLocation();
                String reason = json.getOriginalMessage().replaceAll("\\[Source: [^;]*; ", "[");
                throw RegistryError.INVALID_SCHEMA.exception("Invalid schema: not valid JSON: " + reason
                    + (at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")"), e);
            }
            throw RegistryError.INVALID_SCHEMA.exception("Invalid schema: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            // Avro reports some bad input (e.g. JSON syntax) with other runtime exceptions
            throw RegistryError.INVALID_SCHEMA.exception("Invalid schema: " + e, e);
        }
    }

    private static JsonProcessingException jsonError(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof JsonProcessingException json) {
                return json;
            }
        }
        return null;
    }

    /** The form schemas are stored and compared in. */
    public static String canonical(Schema schema) {
        return schema.toString();
    }

    /** SHA-256 of the canonical form, in hex: the name of the schema's znode. */
    public static String fingerprint(String canonical) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every JVM has SHA-256", e);
        }
    }
}
