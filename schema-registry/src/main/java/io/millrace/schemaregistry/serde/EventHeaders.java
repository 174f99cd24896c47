package io.millrace.schemaregistry.serde;

import io.millrace.common.utils.Time;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;

/**
 * The event header every tracked event carries: an Avro record {@code io.millrace.events.EventHeader
 * {time, server, service, id}} (schema {@code EventHeader.avsc}, next to this class's package in the
 * resources as {@code io/millrace/events/EventHeader.avsc}) held in the event's required field
 * {@code header}. {@link #validate(Schema)} checks an event schema has it; {@link #fill(IndexedRecord)}
 * fills in what the application left out: the time (now), the server (this host's name) and the id
 * (a random UUID). Works on GenericRecords and generated SpecificRecords alike, since both are
 * {@link IndexedRecord}s.
 *
 * <p>Thread-safe.
 */
public final class EventHeaders {

    public static final String HEADER_FIELD = "header";
    public static final String TIME_FIELD = "time";
    public static final String SERVER_FIELD = "server";
    public static final String SERVICE_FIELD = "service";
    public static final String ID_FIELD = "id";

    /** The header's schema, as shipped in {@code io/millrace/events/EventHeader.avsc}. */
    public static final Schema SCHEMA = load("/io/millrace/events/EventHeader.avsc");

    private final Time time;
    private final String server;
    // event schemas already validated, so each record costs one map lookup
    private final Map<Schema, Boolean> validated = new ConcurrentHashMap<>();

    public EventHeaders(Time time, String server) {
        this.time = time;
        this.server = server;
    }

    /** Headers stamped with the system clock and this host's name. */
    public static EventHeaders forThisHost() {
        return new EventHeaders(Time.SYSTEM, localHostName());
    }

    /**
     * Fills in the time, server and id of {@code event}'s header where they are null, and returns the
     * header's time.
     *
     * @throws IllegalArgumentException when the event's schema has no event header, or the event has none
     */
    public long fill(IndexedRecord event) {
        Schema schema = event.getSchema();
        validated.computeIfAbsent(schema, s -> {
            validate(s);
            return Boolean.TRUE;
        });
        Object value = event.get(schema.getField(HEADER_FIELD).pos());
        if (!(value instanceof IndexedRecord)) {
            throw new IllegalArgumentException("The " + schema.getFullName() + " event has no header: its required field '"
                + HEADER_FIELD + "' is null");
        }
        IndexedRecord header = (IndexedRecord) value;
        Schema headerSchema = header.getSchema();
        Object eventTime = fillIfNull(header, headerSchema, TIME_FIELD, time.milliseconds());
        fillIfNull(header, headerSchema, SERVER_FIELD, server);
        fillIfNull(header, headerSchema, ID_FIELD, UUID.randomUUID().toString());
        return ((Number) eventTime).longValue();
    }

    private static Object fillIfNull(IndexedRecord header, Schema headerSchema, String field, Object value) {
        int pos = headerSchema.getField(field).pos();
        Object current = header.get(pos);
        if (current != null) {
            return current;
        }
        header.put(pos, value);
        return value;
    }

    /**
     * Checks that {@code eventSchema} is a tracked event schema: a record with a required field
     * {@code header} of the record type {@code io.millrace.events.EventHeader}, which has the fields
     * time, server, service and id.
     *
     * @throws IllegalArgumentException saying what is missing
     */
    public static void validate(Schema eventSchema) {
        String event = eventSchema.getFullName();
        if (eventSchema.getType() != Schema.Type.RECORD) {
            throw new IllegalArgumentException(event + " is not a record, so it cannot carry an event header");
        }
        Schema.Field field = eventSchema.getField(HEADER_FIELD);
        if (field == null) {
            throw new IllegalArgumentException(event + " has no field '" + HEADER_FIELD + "' of type " + SCHEMA.getFullName());
        }
        Schema header = field.schema();
        if (header.getType() != Schema.Type.RECORD || !header.getFullName().equals(SCHEMA.getFullName())) {
            throw new IllegalArgumentException(event + "'s field '" + HEADER_FIELD + "' must be a required "
                + SCHEMA.getFullName() + ", not " + header);
        }
        for (Schema.Field expected : SCHEMA.getFields()) {
            if (header.getField(expected.name()) == null) {
                throw new IllegalArgumentException(event + "'s header has no field '" + expected.name() + "'");
            }
        }
    }

    /** This host's name, as the header's server; the loopback name when the host has none that resolves. */
    public static String localHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return InetAddress.getLoopbackAddress().getHostName();
        }
    }

    private static Schema load(String resource) {
        try (InputStream in = EventHeaders.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("The resource " + resource + " is missing from the classpath");
            }
            return new Schema.Parser().parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
