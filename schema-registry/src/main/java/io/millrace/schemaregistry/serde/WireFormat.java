package io.millrace.schemaregistry.serde;

import io.millrace.common.serialization.SerializationException;
import java.io.ByteArrayOutputStream;

/**
 * The prefix every Avro-encoded key or value starts with, the layout Confluent's serializers use
 * (so their tools read Millrace's topics, and Millrace reads theirs):
 *
 * <pre>
 * Value =&gt; Magic SchemaId Payload
 *   Magic    =&gt; Int8   always 0; anything else is not this format
 *   SchemaId =&gt; Int32  big-endian, the registry's id of the writer's schema
 *   Payload  =&gt; the Avro binary encoding of the datum with that schema (no container, no sync markers)
 * </pre>
 *
 * <p>Example: a record {@code {"url": "/a"}} written with schema id 42 is the 8 bytes
 * {@code 00 | 00 00 00 2a | 04 2f 61} (the string's length 2 zig-zag encoded as {@code 04}, then its UTF-8 bytes).
 */
public final class WireFormat {

    public static final byte MAGIC_BYTE = 0x0;
    public static final int MAGIC_OFFSET = 0;
    public static final int MAGIC_LENGTH = 1;
    public static final int SCHEMA_ID_OFFSET = MAGIC_OFFSET + MAGIC_LENGTH;
    public static final int SCHEMA_ID_LENGTH = 4;
    /** Where the Avro payload starts; also the length of the prefix. */
    public static final int PAYLOAD_OFFSET = SCHEMA_ID_OFFSET + SCHEMA_ID_LENGTH;

    private WireFormat() {
    }

    /** Writes the magic byte and {@code schemaId} to {@code out}, ready for the payload. */
    public static void writePrefix(ByteArrayOutputStream out, int schemaId) {
        out.write(MAGIC_BYTE);
        out.write(schemaId >>> 24);
        out.write(schemaId >>> 16);
        out.write(schemaId >>> 8);
        out.write(schemaId);
    }

    /**
     * The schema id of {@code data}, a key or value of {@code topic}.
     *
     * @throws SerializationException when {@code data} is too short for the prefix or does not start with the magic byte
     */
    public static int schemaId(String topic, byte[] data) {
        if (data.length < PAYLOAD_OFFSET) {
            throw new SerializationException("Not an Avro value of topic " + topic + ": " + data.length
                + " bytes, fewer than the " + PAYLOAD_OFFSET + "-byte prefix (magic byte and schema id)");
        }
        if (data[MAGIC_OFFSET] != MAGIC_BYTE) {
            throw new SerializationException(String.format("Not an Avro value of topic %s: it starts with byte 0x%02x, "
                + "not the magic byte 0x00 followed by a schema id", topic, data[MAGIC_OFFSET] & 0xff));
        }
        return (data[SCHEMA_ID_OFFSET] & 0xff) << 24 | (data[SCHEMA_ID_OFFSET + 1] & 0xff) << 16
            | (data[SCHEMA_ID_OFFSET + 2] & 0xff) << 8 | data[SCHEMA_ID_OFFSET + 3] & 0xff;
    }
}
