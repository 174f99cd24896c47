package io.millrace.schemaregistry.serde;

import io.millrace.common.config.AbstractConfig;
import io.millrace.common.config.ConfigDef;
import io.millrace.common.config.ConfigDef.Importance;
import io.millrace.common.config.ConfigDef.Type;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.client.SchemaRegistryClientConfig;
import java.util.Map;

/**
 * The settings of {@link AvroSerializer} and {@link AvroDeserializer}, under Confluent's names so
 * that a producer or consumer configuration written for Confluent's serdes works unchanged. They
 * sit in the producer's or consumer's configuration, which hands them to the serde's
 * {@code configure}. The {@code schema.registry.*} settings of {@link SchemaRegistryClientConfig}
 * apply as well when the serde makes its own client. Immutable and thread-safe.
 */
public final class AvroSerdeConfig extends AbstractConfig {

    public static final String SCHEMA_REGISTRY_URL_CONFIG = SchemaRegistryClientConfig.URL_CONFIG;
    static final String SCHEMA_REGISTRY_URL_DOC = "The registry's base URLs, comma separated (http://host:8081). "
        + "Needed unless the serializer or deserializer was given a SchemaRegistryClient; the other "
        + "schema.registry.* client settings apply to the client it makes.";

    public static final String AUTO_REGISTER_SCHEMAS_CONFIG = "auto.register.schemas";
    static final String AUTO_REGISTER_SCHEMAS_DOC = "Whether the serializer registers a value's schema under the "
        + "subject TOPIC-value (TOPIC-key for keys) when it is not there yet. Off, a schema must have been "
        + "registered beforehand (so a producer cannot change what a topic holds by accident) and sending a value "
        + "with an unregistered schema fails with a SerializationException.";

    public static final String SPECIFIC_AVRO_READER_CONFIG = "specific.avro.reader";
    static final String SPECIFIC_AVRO_READER_DOC = "Whether the deserializer returns generated SpecificRecord "
        + "classes (the class named by the writer's schema, which must be on the classpath and in a package Avro "
        + "trusts: org.apache.avro.SERIALIZABLE_PACKAGES) instead of GenericRecords. The writer's schema is resolved "
        + "into the class's schema, so events written with an older schema decode into the current class.";

    public static final ConfigDef CONFIG = new ConfigDef()
        .define(SCHEMA_REGISTRY_URL_CONFIG, Type.LIST, null, Importance.HIGH, SCHEMA_REGISTRY_URL_DOC)
        .define(AUTO_REGISTER_SCHEMAS_CONFIG, Type.BOOLEAN, false, Importance.MEDIUM, AUTO_REGISTER_SCHEMAS_DOC)
        .define(SPECIFIC_AVRO_READER_CONFIG, Type.BOOLEAN, false, Importance.MEDIUM, SPECIFIC_AVRO_READER_DOC);

    public AvroSerdeConfig(Map<?, ?> props) {
        super(CONFIG, props);
    }

    public boolean autoRegisterSchemas() {
        return getBoolean(AUTO_REGISTER_SCHEMAS_CONFIG);
    }

    public boolean specificAvroReader() {
        return getBoolean(SPECIFIC_AVRO_READER_CONFIG);
    }

    /** A new client with the {@code schema.registry.*} settings; fails when {@code schema.registry.url} is missing. */
    public SchemaRegistryClient newRegistryClient() {
        return new SchemaRegistryClient(new SchemaRegistryClientConfig(originals()));
    }

    /** The registry subject of a topic's values ({@code <topic>-value}) or keys ({@code <topic>-key}). */
    public static String subject(String topic, boolean isKey) {
        return topic + (isKey ? "-key" : "-value");
    }
}
