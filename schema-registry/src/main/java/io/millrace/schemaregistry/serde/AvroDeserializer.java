package io.millrace.schemaregistry.serde;

import io.millrace.common.serialization.Deserializer;
import io.millrace.common.serialization.SerializationException;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.client.SchemaRegistryClientException;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;

/**
 * Reads {@link WireFormat} values: takes the schema id, fetches the writer's schema from the
 * registry (once per id: the client caches ids for good, since an id never changes its schema)
 * and decodes the Avro payload, resolving the writer's schema into the reader's:
 * <ul>
 *   <li>with {@code specific.avro.reader=true}, into the generated class the writer's schema names,
 *       so events written with an older schema decode into the current class;</li>
 *   <li>given a reader schema, into GenericRecords of that schema;</li>
 *   <li>otherwise into GenericRecords of the writer's schema.</li>
 * </ul>
 * Bytes that are not this format, an id the registry does not know, a truncated payload or a writer
 * schema that cannot be resolved into the reader's all fail with a {@link SerializationException}
 * that names the topic. Settings: {@link AvroSerdeConfig}.
 *
 * <p>Thread-safe once configured.
 *
 * @param <T> the type read, e.g. {@code GenericRecord}, a generated class, or {@code Object}
 */
public final class AvroDeserializer<T> implements Deserializer<T> {

    private final Map<Integer, DatumReader<T>> readers = new ConcurrentHashMap<>();
    private final Schema readerSchema;
    private volatile SchemaRegistryClient registry;
    private volatile boolean specificReader;

    /** A deserializer that makes its own registry client when configured ({@code schema.registry.url}). */
    public AvroDeserializer() {
        this(null, (Schema) null);
    }

    /** A deserializer that uses {@code registry}; {@code configure} may still set the other settings. */
    public AvroDeserializer(SchemaRegistryClient registry) {
        this(registry, (Schema) null);
    }

    /** A deserializer of GenericRecords of {@code readerSchema}, into which every writer's schema is resolved. */
    public AvroDeserializer(SchemaRegistryClient registry, Schema readerSchema) {
        this.registry = registry;
        this.readerSchema = readerSchema;
    }

    /** A deserializer that uses {@code registry}, configured with {@code configs}. */
    public AvroDeserializer(SchemaRegistryClient registry, Map<String, ?> configs) {
        this(registry, (Schema) null);
        configure(configs, false);
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        AvroSerdeConfig config = new AvroSerdeConfig(configs);
        if (registry == null) {
            registry = config.newRegistryClient();
        }
        this.specificReader = config.specificAvroReader();
        if (specificReader && readerSchema != null) {
            throw new IllegalStateException("A reader schema and " + AvroSerdeConfig.SPECIFIC_AVRO_READER_CONFIG
                + "=true exclude each other: the generated class's schema is the reader's schema");
        }
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        int id = WireFormat.schemaId(topic, data);
        DatumReader<T> reader = reader(topic, id);
        BinaryDecoder decoder = DecoderFactory.get()
            .binaryDecoder(data, WireFormat.PAYLOAD_OFFSET, data.length - WireFormat.PAYLOAD_OFFSET, null);
        try {
            T value = reader.read(null, decoder);
            if (!decoder.isEnd()) {
                throw new IOException("bytes are left over after the value");
            }
            return value;
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("Cannot decode a value of topic " + topic + " written with schema id " + id
                + " (" + data.length + " bytes): " + e, e);
        }
    }

    private DatumReader<T> reader(String topic, int id) {
        DatumReader<T> reader = readers.get(id);
        if (reader == null) {
            // not computeIfAbsent: the registry request must not run under a lock of the map
            reader = newReader(topic, id, writerSchema(topic, id));
            DatumReader<T> raced = readers.putIfAbsent(id, reader);
            reader = raced == null ? reader : raced;
        }
        return reader;
    }

    private Schema writerSchema(String topic, int id) {
        SchemaRegistryClient client = registry;
        if (client == null) {
            throw new IllegalStateException("AvroDeserializer is not configured: pass a SchemaRegistryClient or call configure");
        }
        try {
            return client.getById(id);
        } catch (SchemaRegistryClientException e) {
            throw new SerializationException("Cannot read a value of topic " + topic + ": the registry has no schema with id "
                + id + " or could not be asked (" + e.getMessage() + ")", e);
        }
    }

    private DatumReader<T> newReader(String topic, int id, Schema writer) {
        if (!specificReader) {
            return new GenericDatumReader<>(writer, readerSchema == null ? writer : readerSchema);
        }
        Class<?> type;
        try {
            type = SpecificData.get().getClass(writer);
        } catch (SecurityException e) {
            throw new SerializationException("Cannot read topic " + topic + " into " + writer.getFullName() + ": Avro does "
                + "not trust its package; add it to the system property org.apache.avro.SERIALIZABLE_PACKAGES", e);
        }
        if (type == null) {
            throw new SerializationException("Cannot read topic " + topic + " with " + AvroSerdeConfig.SPECIFIC_AVRO_READER_CONFIG
                + "=true: no generated class " + writer.getFullName() + " (schema id " + id + ") on the classpath");
        }
        return new SpecificDatumReader<>(writer, SpecificData.get().getSchema(type));
    }

    @Override
    public void close() {
        readers.clear();
    }
}
