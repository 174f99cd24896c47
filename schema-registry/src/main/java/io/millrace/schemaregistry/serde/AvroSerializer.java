package io.millrace.schemaregistry.serde;

import io.millrace.common.serialization.SerializationException;
import io.millrace.common.serialization.Serializer;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.client.SchemaRegistryClientException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericContainer;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/**
 * Writes Avro records (GenericRecord or generated SpecificRecord classes, anything that carries its
 * schema) as {@link WireFormat}: the magic byte, the id of the record's schema in the subject
 * {@code <topic>-value} (or {@code <topic>-key}), then the Avro binary encoding.
 *
 * <p>The schema's id is looked up in the registry once per schema and subject (the client caches
 * it). With {@code auto.register.schemas=true} an unknown schema is registered, which the registry
 * refuses when it breaks the subject's compatibility level; with the default {@code false} it must
 * be registered beforehand. Settings: {@link AvroSerdeConfig}.
 *
 * <p>Thread-safe once configured: a producer may share one instance among its sending threads.
 *
 * @param <T> the type of the records written, e.g. {@code GenericRecord}, a generated class, or {@code Object}
 */
public final class AvroSerializer<T> implements Serializer<T> {

    private final Map<Schema, DatumWriter<Object>> writers = new ConcurrentHashMap<>();
    private volatile SchemaRegistryClient registry;
    private volatile boolean autoRegister;
    private volatile boolean isKey;

    /** A serializer that makes its own registry client when configured ({@code schema.registry.url}). */
    public AvroSerializer() {
    }

    /** A serializer that uses {@code registry}; {@code configure} may still set the other settings. */
    public AvroSerializer(SchemaRegistryClient registry) {
        this.registry = registry;
    }

    /** A serializer that uses {@code registry}, configured with {@code configs} for values. */
    public AvroSerializer(SchemaRegistryClient registry, Map<String, ?> configs) {
        this(registry);
        configure(configs, false);
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        AvroSerdeConfig config = new AvroSerdeConfig(configs);
        if (registry == null) {
            registry = config.newRegistryClient();
        }
        this.autoRegister = config.autoRegisterSchemas();
        this.isKey = isKey;
    }

    @Override
    public byte[] serialize(String topic, T data) {
        if (data == null) {
            return null;
        }
        if (!(data instanceof GenericContainer)) {
            throw new SerializationException("Cannot write a " + data.getClass().getName() + " to topic " + topic
                + " as Avro: only records that carry their schema (GenericRecord, SpecificRecord) are supported");
        }
        Schema schema = ((GenericContainer) data).getSchema();
        int id = schemaId(topic, schema);
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        WireFormat.writePrefix(out, id);
        write(topic, data, schema, out);
        return out.toByteArray();
    }

    private int schemaId(String topic, Schema schema) {
        SchemaRegistryClient client = registry;
        if (client == null) {
            throw new IllegalStateException("AvroSerializer is not configured: pass a SchemaRegistryClient or call configure");
        }
        String subject = AvroSerdeConfig.subject(topic, isKey);
        try {
            return autoRegister ? client.register(subject, schema) : client.getId(subject, schema);
        } catch (SchemaRegistryClientException e) {
            throw new SerializationException(idFailure(topic, subject, schema, e), e);
        }
    }

    private String idFailure(String topic, String subject, Schema schema, SchemaRegistryClientException e) {
        String what = "Cannot write " + schema.getFullName() + " to topic " + topic + ": ";
        boolean notRegistered = e.status() == 404 && (e.errorCode() == 40401 || e.errorCode() == 40403);
        if (notRegistered && !autoRegister) {
            return what + "its schema is not registered under subject " + subject + " and "
                + AvroSerdeConfig.AUTO_REGISTER_SCHEMAS_CONFIG + " is false; register it first (" + e.getMessage() + ")";
        }
        return what + (autoRegister ? "registering" : "looking up") + " its schema under subject " + subject
            + " failed: " + e.getMessage();
    }

    private void write(String topic, Object data, Schema schema, ByteArrayOutputStream out) {
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        try {
            writers.computeIfAbsent(schema, s -> newWriter(data, s)).write(data, encoder);
            encoder.flush();
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("Cannot encode " + schema.getFullName() + " for topic " + topic + ": " + e, e);
        }
    }

    private static DatumWriter<Object> newWriter(Object data, Schema schema) {
        // the same schema is always written by the same kind of record in practice; a specific
        // writer also handles generic records, so the first record's kind is a safe choice
        return data instanceof SpecificRecord ? new SpecificDatumWriter<>(schema) : new GenericDatumWriter<>(schema);
    }

    @Override
    public void close() {
        writers.clear();
    }
}
