package io.millrace.hadoop.input;

import io.millrace.common.serialization.SerializationException;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.client.SchemaRegistryClientException;
import io.millrace.schemaregistry.serde.EventHeaders;
import io.millrace.schemaregistry.serde.WireFormat;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * Reads what the load needs of an Avro event without decoding it: the writer's schema (from the registry,
 * once per id) and the event header's time, after checking the bytes against that schema
 * ({@link AvroBinary}), so a value it accepts is one the registry's deserializer decodes, and one it refuses
 * is one that deserializer refuses. The event time is the one {@link EventTime} takes from a decoded event.
 * Not thread-safe.
 */
final class EventScanner {

    private final SchemaRegistryClient registry;
    private final Map<Integer, Layout> layouts = new HashMap<>();
    private final AvroBinary cursor = new AvroBinary();
    private Layout last;

    /** Where the header is in events of one writer's schema. */
    private record Layout(int id, Schema schema, int headerPos) {
    }

    EventScanner(SchemaRegistryClient registry) {
        this.registry = registry;
    }

    /**
     * Checks the Avro value {@code data} of {@code topic} and makes {@code value} (which holds it) the
     * event it is, left encoded.
     *
     * @throws SerializationException when the value is not an Avro record of its writer's schema
     */
    // hot path: once per event
    void scan(String topic, byte[] data, MillraceValue value) {
        int id = WireFormat.schemaId(topic, data);
        Layout layout = last != null && last.id == id ? last : layout(topic, id);
        last = layout;
        cursor.reset(data, WireFormat.PAYLOAD_OFFSET, data.length - WireFormat.PAYLOAD_OFFSET);
        long time;
        try {
            time = walk(layout, value.timestamp());
            if (!cursor.atEnd()) {
                throw new IOException("bytes are left over after the value");
            }
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("Cannot decode a value of topic " + topic + " written with schema id " + id
                + " (" + data.length + " bytes): " + e, e);
        }
        value.scanned(layout.schema, id, time);
    }

    /** Walks the whole event; returns its header's time, or {@code fallback} when it has none. */
    private long walk(Layout layout, long fallback) throws IOException {
        List<Schema.Field> fields = layout.schema.getFields();
        long time = fallback;
        for (int i = 0, n = fields.size(); i < n; i++) {
            if (i == layout.headerPos) {
                time = header(fields.get(i).schema(), fallback);
            } else {
                cursor.skip(fields.get(i).schema());
            }
        }
        return time;
    }

    private long header(Schema schema, long fallback) throws IOException {
        Schema header = schema.getType() == Schema.Type.UNION ? cursor.branch(schema) : schema;
        if (header.getType() != Schema.Type.RECORD) {
            cursor.skip(header);
            return fallback;
        }
        Schema.Field timeField = header.getField(EventHeaders.TIME_FIELD);
        List<Schema.Field> fields = header.getFields();
        long time = fallback;
        for (int i = 0, n = fields.size(); i < n; i++) {
            Schema.Field field = fields.get(i);
            if (field == timeField) {
                time = time(field.schema(), fallback);
            } else {
                cursor.skip(field.schema());
            }
        }
        return time;
    }

    private long time(Schema schema, long fallback) throws IOException {
        Schema written = schema.getType() == Schema.Type.UNION ? cursor.branch(schema) : schema;
        if (!AvroBinary.isNumber(written)) {
            cursor.skip(written);
            return fallback;
        }
        return cursor.readNumber(written);
    }

    private Layout layout(String topic, int id) {
        Layout layout = layouts.get(id);
        if (layout == null) {
            Schema schema;
            try {
                schema = registry.getById(id);
            } catch (SchemaRegistryClientException e) {
                throw new SerializationException("Cannot read a value of topic " + topic + ": the registry has no schema with id "
                    + id + " or could not be asked (" + e.getMessage() + ")", e);
            }
            if (schema.getType() != Schema.Type.RECORD) {
                throw new SerializationException("Cannot read a value of topic " + topic + " as an event: schema id " + id
                    + " is a " + schema.getType() + ", not a record");
            }
            Schema.Field header = schema.getField(EventHeaders.HEADER_FIELD);
            layout = new Layout(id, schema, header == null ? -1 : header.pos());
            layouts.put(id, layout);
        }
        return layout;
    }
}
