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

    /**
     * Where the header is in events of one writer's schema: its fields' schemas, the header field's position
     * (or -1), and the header's layout by union branch (index 0 when the header is not a union; null where
     * a branch is not a record). Worked out once per schema id: looking fields up by name per event cost a
     * twentieth of the load's map task.
     */
    private record Layout(int id, Schema schema, Schema[] fields, int headerPos, HeaderLayout[] headers) {

        static Layout of(int id, Schema schema) {
            Schema.Field header = schema.getField(EventHeaders.HEADER_FIELD);
            HeaderLayout[] headers = new HeaderLayout[0];
            if (header != null) {
                Schema headerSchema = header.schema();
                List<Schema> branches = headerSchema.getType() == Schema.Type.UNION ? headerSchema.getTypes() : List.of(headerSchema);
                headers = branches.stream().map(HeaderLayout::of).toArray(HeaderLayout[]::new);
            }
            return new Layout(id, schema, fieldSchemas(schema), header == null ? -1 : header.pos(), headers);
        }
    }

    /** A header record's fields' schemas and the position of its time field, or -1. */
    private record HeaderLayout(Schema[] fields, int timePos) {

        /** Null when {@code header} is not a record. */
        static HeaderLayout of(Schema header) {
            if (header.getType() != Schema.Type.RECORD) {
                return null;
            }
            Schema.Field time = header.getField(EventHeaders.TIME_FIELD);
            return new HeaderLayout(fieldSchemas(header), time == null ? -1 : time.pos());
        }
    }

    private static Schema[] fieldSchemas(Schema record) {
        return record.getFields().stream().map(Schema.Field::schema).toArray(Schema[]::new);
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
        Schema[] fields = layout.fields;
        long time = fallback;
        for (int i = 0; i < fields.length; i++) {
            if (i == layout.headerPos) {
                time = header(layout, fields[i], fallback);
            } else {
                cursor.skip(fields[i]);
            }
        }
        return time;
    }

    private long header(Layout layout, Schema schema, long fallback) throws IOException {
        int branch = schema.getType() == Schema.Type.UNION ? cursor.branchIndex(schema) : 0;
        HeaderLayout header = layout.headers[branch];
        if (header == null) {
            cursor.skip(schema.getType() == Schema.Type.UNION ? schema.getTypes().get(branch) : schema);
            return fallback;
        }
        Schema[] fields = header.fields;
        long time = fallback;
        for (int i = 0; i < fields.length; i++) {
            if (i == header.timePos) {
                time = time(fields[i], fallback);
            } else {
                cursor.skip(fields[i]);
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
            layout = Layout.of(id, schema);
            layouts.put(id, layout);
        }
        return layout;
    }
}
