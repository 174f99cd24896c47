package io.millrace.schemaregistry.serde;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.common.config.ConfigException;
import io.millrace.common.serialization.SerializationException;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.client.SchemaRegistryClientConfig;
import io.millrace.schemaregistry.server.Registries;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;

/** The serdes against a real registry: bytes, ids, schema resolution, lookups counted at the server, and failures. */
public class AvroSerdeTest {

    @ClassRule
    public static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();

    static final Schema VIEW_V1 = SchemaBuilder.record("PageView").namespace("io.millrace.test").fields()
        .requiredString("url")
        .endRecord();
    /** v1 plus a field with a default: a BACKWARD-compatible change. */
    static final Schema VIEW_V2 = SchemaBuilder.record("PageView").namespace("io.millrace.test").fields()
        .requiredString("url")
        .name("referrer").type().stringType().stringDefault("(direct)")
        .endRecord();

    private static SchemaRegistryServer server;

    @BeforeClass
    public static void startRegistry() throws Exception {
        server = Registries.start(ZOOKEEPER);
    }

    @AfterClass
    public static void stopRegistry() {
        server.close();
    }

    private static SchemaRegistryClient newClient() {
        return new SchemaRegistryClient(Map.of(SchemaRegistryClientConfig.URL_CONFIG, server.urls().get(0)));
    }

    private static AvroSerializer<GenericRecord> autoRegistering(SchemaRegistryClient client) {
        return new AvroSerializer<>(client, Map.of(AvroSerdeConfig.AUTO_REGISTER_SCHEMAS_CONFIG, true));
    }

    static GenericRecord view(Schema schema, String url) {
        return new GenericRecordBuilder(schema).set("url", url).build();
    }

    @Test
    public void aGenericRecordComesBackEqual() {
        SchemaRegistryClient client = newClient();
        GenericRecord view = view(VIEW_V2, "/home");
        byte[] bytes = autoRegistering(client).serialize("generic-views", view);
        int id = client.getLatest("generic-views-value").id();
        ByteArrayOutputStream prefix = new ByteArrayOutputStream();
        WireFormat.writePrefix(prefix, id);
        assertArrayEquals(prefix.toByteArray(), Arrays.copyOf(bytes, WireFormat.PAYLOAD_OFFSET));
        GenericRecord read = new AvroDeserializer<GenericRecord>(client).deserialize("generic-views", bytes);
        assertEquals(VIEW_V2, read.getSchema());
        assertEquals("/home", read.get("url").toString());
        assertEquals("(direct)", read.get("referrer").toString());
        assertEquals(0, GenericData.get().compare(view, read, VIEW_V2));
    }

    @Test
    public void nullStaysNull() {
        SchemaRegistryClient client = newClient();
        assertEquals(null, autoRegistering(client).serialize("nulls", null));
        assertEquals(null, new AvroDeserializer<GenericRecord>(client).deserialize("nulls", null));
    }

    @Test
    public void anOldEventIsReadWithTheNewReaderSchema() {
        SchemaRegistryClient client = newClient();
        byte[] old = autoRegistering(client).serialize("evolving", view(VIEW_V1, "/old"));
        byte[] current = autoRegistering(client).serialize("evolving", view(VIEW_V2, "/new"));
        assertEquals(List.of(1, 2), client.versions("evolving-value"));

        AvroDeserializer<GenericRecord> reader = new AvroDeserializer<>(client, VIEW_V2);
        GenericRecord fromOld = reader.deserialize("evolving", old);
        assertEquals(VIEW_V2, fromOld.getSchema());
        assertEquals("/old", fromOld.get("url").toString());
        assertEquals("(direct)", fromOld.get("referrer").toString());
        assertEquals("/new", reader.deserialize("evolving", current).get("url").toString());
        // without a reader schema each value comes back in the schema it was written with
        assertEquals(VIEW_V1, new AvroDeserializer<GenericRecord>(client).deserialize("evolving", old).getSchema());
    }

    @Test
    public void aWriterSchemaThatCannotBeResolvedFailsNamingTheTopic() {
        SchemaRegistryClient client = newClient();
        byte[] old = autoRegistering(client).serialize("unresolvable", view(VIEW_V1, "/old"));
        Schema needsMore = SchemaBuilder.record("PageView").namespace("io.millrace.test").fields()
            .requiredString("url").requiredLong("userId").endRecord();
        SerializationException e = assertThrows(SerializationException.class,
            () -> new AvroDeserializer<GenericRecord>(client, needsMore).deserialize("unresolvable", old));
        assertTrue(e.getMessage(), e.getMessage().contains("unresolvable") && e.getMessage().contains("userId"));
    }

    @Test
    public void theDeserializerAsksForASchemaIdOnce() {
        byte[] bytes = autoRegistering(newClient()).serialize("lookups", view(VIEW_V1, "/once"));
        AvroDeserializer<GenericRecord> deserializer = new AvroDeserializer<>(newClient());
        long before = server.metrics().getRequests();
        for (int i = 0; i < 100; i++) {
            assertEquals("/once", deserializer.deserialize("lookups", bytes).get("url").toString());
        }
        assertEquals(before + 1, server.metrics().getRequests());
    }

    @Test
    public void theSerializerAsksForASchemaIdOnce() {
        AvroSerializer<GenericRecord> serializer = autoRegistering(newClient());
        long before = server.metrics().getRequests();
        for (int i = 0; i < 100; i++) {
            serializer.serialize("writes", view(VIEW_V1, "/" + i));
        }
        assertEquals(before + 1, server.metrics().getRequests());
    }

    @Test
    public void bytesThatAreNotAvroValuesFailNamingTheTopic() {
        SchemaRegistryClient client = newClient();
        byte[] good = autoRegistering(client).serialize("bad-values", view(VIEW_V1, "/a/long/enough/url"));
        AvroDeserializer<GenericRecord> deserializer = new AvroDeserializer<>(client);

        byte[] noMagic = good.clone();
        noMagic[0] = 7;
        assertFailsNaming(deserializer, noMagic, "magic byte");
        assertFailsNaming(deserializer, "plain text".getBytes(), "magic byte");
        assertFailsNaming(deserializer, new byte[] {0, 0, 1}, "prefix");
        byte[] unknownId = good.clone();
        unknownId[1] = 0x7f;
        assertFailsNaming(deserializer, unknownId, "no schema with id " + WireFormat.schemaId("t", unknownId));
        assertFailsNaming(deserializer, Arrays.copyOf(good, good.length - 3), "Cannot decode");
        assertFailsNaming(deserializer, Arrays.copyOf(good, good.length + 2), "left over");
    }

    private static void assertFailsNaming(AvroDeserializer<GenericRecord> deserializer, byte[] data, String why) {
        SerializationException e = assertThrows(SerializationException.class, () -> deserializer.deserialize("bad-values", data));
        assertTrue(e.getMessage(), e.getMessage().contains("topic bad-values") && e.getMessage().contains(why));
    }

    @Test
    public void withoutAutoRegistrationAnUnregisteredSchemaIsAClearError() {
        SchemaRegistryClient client = newClient();
        AvroSerializer<GenericRecord> serializer = new AvroSerializer<>(client, Map.of());
        SerializationException e = assertThrows(SerializationException.class,
            () -> serializer.serialize("manual", view(VIEW_V1, "/")));
        assertTrue(e.getMessage(), e.getMessage().contains("manual-value") && e.getMessage().contains("auto.register.schemas"));
        assertTrue(client.subjects().stream().noneMatch("manual-value"::equals));

        int id = client.register("manual-value", VIEW_V1);
        assertEquals(id, WireFormat.schemaId("manual", serializer.serialize("manual", view(VIEW_V1, "/"))));
        assertThrows(SerializationException.class, () -> serializer.serialize("manual", view(VIEW_V2, "/")));
    }

    @Test
    public void withAutoRegistrationTheSchemaIsRegisteredUnderTheTopicsSubjects() {
        SchemaRegistryClient client = newClient();
        byte[] value = autoRegistering(client).serialize("auto", view(VIEW_V1, "/"));
        AvroSerializer<GenericRecord> keys = new AvroSerializer<>(client);
        keys.configure(Map.of(AvroSerdeConfig.AUTO_REGISTER_SCHEMAS_CONFIG, "true"), true);
        byte[] key = keys.serialize("auto", view(VIEW_V2, "/"));
        assertEquals(client.getLatest("auto-value").id(), WireFormat.schemaId("auto", value));
        assertEquals(VIEW_V1, client.getLatest("auto-value").schema());
        assertEquals(client.getLatest("auto-key").id(), WireFormat.schemaId("auto", key));
        assertEquals(VIEW_V2, client.getLatest("auto-key").schema());
    }

    @Test
    public void anIncompatibleSchemaIsRefusedNamingTheTopic() {
        SchemaRegistryClient client = newClient();
        autoRegistering(client).serialize("strict", view(VIEW_V1, "/"));
        Schema incompatible = SchemaBuilder.record("PageView").namespace("io.millrace.test").fields()
            .requiredString("url").requiredLong("userId").endRecord();
        GenericRecord value = new GenericRecordBuilder(incompatible).set("url", "/").set("userId", 1L).build();
        SerializationException e = assertThrows(SerializationException.class,
            () -> autoRegistering(client).serialize("strict", value));
        assertTrue(e.getMessage(), e.getMessage().contains("topic strict") && e.getMessage().contains("409"));
    }

    @Test
    public void valuesWithoutASchemaAreRefused() {
        AvroSerializer<Object> serializer = new AvroSerializer<>(newClient(), Map.of());
        SerializationException e = assertThrows(SerializationException.class, () -> serializer.serialize("strings", "text"));
        assertTrue(e.getMessage(), e.getMessage().contains("java.lang.String") && e.getMessage().contains("strings"));
    }

    @Test
    public void serdesNamedInAConfigurationMakeTheirOwnClient() {
        Map<String, Object> configs = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL_CONFIG, server.urls().get(0),
            AvroSerdeConfig.AUTO_REGISTER_SCHEMAS_CONFIG, "true");
        AvroSerializer<GenericRecord> serializer = new AvroSerializer<>();
        serializer.configure(configs, false);
        AvroDeserializer<GenericRecord> deserializer = new AvroDeserializer<>();
        deserializer.configure(configs, false);
        byte[] bytes = serializer.serialize("configured", view(VIEW_V1, "/c"));
        assertEquals("/c", deserializer.deserialize("configured", bytes).get("url").toString());

        ConfigException noUrl = assertThrows(ConfigException.class, () -> new AvroSerializer<>().configure(Map.of(), false));
        assertTrue(noUrl.getMessage(), noUrl.getMessage().contains("schema.registry.url"));
        assertThrows(IllegalStateException.class, () -> new AvroSerializer<GenericRecord>().serialize("t", view(VIEW_V1, "/")));
    }

    @Test
    public void theSettingsDefaultToConfluentsDefaults() {
        AvroSerdeConfig config = new AvroSerdeConfig(Map.of());
        assertEquals(false, config.autoRegisterSchemas());
        assertEquals(false, config.specificAvroReader());
        assertEquals("views-value", AvroSerdeConfig.subject("views", false));
        assertEquals("views-key", AvroSerdeConfig.subject("views", true));
    }
}
