package io.millrace.hadoop.input;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.common.serialization.SerializationException;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.serde.AvroDeserializer;
import io.millrace.schemaregistry.serde.EventHeaders;
import io.millrace.schemaregistry.serde.WireFormat;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The load reads events without decoding them ({@link EventScanner}): it must accept exactly the values the
 * registry's deserializer decodes, and find the event time the decoded event has. Held against the
 * deserializer on events of every Avro type, on their truncations and on random corruptions.
 */
public class EventScannerTest {

    private static final Schema KIND = SchemaBuilder.enumeration("Kind").namespace("io.millrace.test").symbols("A", "B", "C");
    private static final Schema TAG = SchemaBuilder.record("Tag").namespace("io.millrace.test").fields()
        .requiredString("name").optionalDouble("weight").endRecord();
    /** Every Avro type, the header in the middle, so fields before and after it are walked too. */
    private static final Schema EVERYTHING = SchemaBuilder.record("Everything").namespace("io.millrace.test").fields()
        .requiredInt("i").requiredBoolean("flag").requiredFloat("f")
        .name(EventHeaders.HEADER_FIELD).type(EventHeaders.SCHEMA).noDefault()
        .requiredLong("l").requiredDouble("d").requiredBytes("b").requiredString("s")
        .name("fixed").type().fixed("Four").namespace("io.millrace.test").size(4).noDefault()
        .name("kind").type(KIND).noDefault()
        .name("tags").type().array().items(TAG).noDefault()
        .name("counts").type().map().values().unionOf().nullType().and().longType().endUnion().noDefault()
        .name("maybeTag").type().unionOf().nullType().and().type(TAG).endUnion().nullDefault()
        .name("nothing").type().nullType().noDefault()
        .endRecord();
    /** A header of another shape: an optional header whose time is a double. */
    private static final Schema OTHER_HEADER = SchemaBuilder.record("OtherHeader").namespace("io.millrace.test").fields()
        .requiredString("id").optionalDouble(EventHeaders.TIME_FIELD).endRecord();
    private static final Schema OPTIONAL_HEADER = SchemaBuilder.record("OptionalHeader").namespace("io.millrace.test").fields()
        .optionalString("before")
        .name(EventHeaders.HEADER_FIELD).type().unionOf().nullType().and().type(OTHER_HEADER).endUnion().nullDefault()
        .endRecord();
    private static final Schema NO_HEADER = SchemaBuilder.record("NoHeader").namespace("io.millrace.test").fields()
        .requiredLong("n").endRecord();

    private static final long TIMESTAMP = 1_700_000_000_123L;

    private static EmbeddedZooKeeper zookeeper;
    private static SchemaRegistryServer registryServer;
    private static SchemaRegistryClient registry;
    private static final Map<Schema, Integer> ids = new HashMap<>();

    @BeforeClass
    public static void start() throws Exception {
        zookeeper = new EmbeddedZooKeeper().start();
        registryServer = SchemaRegistryServer.startLocal(zookeeper.connectString());
        registry = new SchemaRegistryClient(Map.of("schema.registry.url", registryServer.urls().get(0)));
        for (Schema schema : List.of(EVERYTHING, OPTIONAL_HEADER, NO_HEADER, Schema.create(Schema.Type.STRING))) {
            ids.put(schema, registry.register("scanner-" + schema.getName(), schema));
        }
    }

    @AfterClass
    public static void stop() throws IOException {
        if (registryServer != null) {
            registryServer.close();
        }
        if (zookeeper != null) {
            zookeeper.stop();
        }
    }

    @Test
    public void acceptsWhatTheDeserializerDecodesAndFindsTheDecodedEventsTime() throws Exception {
        Random random = new Random(42);
        EventScanner scanner = new EventScanner(registry);
        AvroDeserializer<GenericRecord> deserializer = new AvroDeserializer<>(registry);
        for (int n = 0; n < 500; n++) {
            byte[] value = encode(EVERYTHING, everything(random));
            MillraceValue scanned = scan(scanner, value);
            GenericRecord decoded = deserializer.deserialize("t", value);
            assertEquals(EventTime.of(decoded, TIMESTAMP), scanned.eventTime());
            assertEquals(decoded.getSchema(), scanned.writerSchema());
            assertEquals((int) ids.get(EVERYTHING), scanned.schemaId());
            assertNull(scanned.record());
            assertEquals(ByteBuffer.wrap(value, 5, value.length - 5), scanned.avroBinary());
        }
    }

    @Test
    public void theTimeComesFromTheHeaderWhateverItsShapeElseFromTheMessage() throws Exception {
        EventScanner scanner = new EventScanner(registry);
        GenericRecord header = new GenericData.Record(OTHER_HEADER);
        header.put("id", "x");
        header.put(EventHeaders.TIME_FIELD, 1.7e12 + 0.9);
        GenericRecord event = new GenericData.Record(OPTIONAL_HEADER);
        event.put(EventHeaders.HEADER_FIELD, header);
        assertEquals((long) (1.7e12 + 0.9), scan(scanner, encode(OPTIONAL_HEADER, event)).eventTime());
        header.put(EventHeaders.TIME_FIELD, null);
        assertEquals("a null time", TIMESTAMP, scan(scanner, encode(OPTIONAL_HEADER, event)).eventTime());
        event.put(EventHeaders.HEADER_FIELD, null);
        assertEquals("a null header", TIMESTAMP, scan(scanner, encode(OPTIONAL_HEADER, event)).eventTime());
        GenericRecord plain = new GenericData.Record(NO_HEADER);
        plain.put("n", 7L);
        assertEquals("no header field", TIMESTAMP, scan(scanner, encode(NO_HEADER, plain)).eventTime());
    }

    @Test
    public void refusesEveryTruncationAndLeftOverBytesAsTheDeserializerDoes() throws Exception {
        Random random = new Random(7);
        EventScanner scanner = new EventScanner(registry);
        for (int n = 0; n < 20; n++) {
            byte[] value = encode(EVERYTHING, everything(random));
            for (int length = WireFormat.PAYLOAD_OFFSET; length < value.length; length++) {
                assertSameVerdict(scanner, Arrays.copyOf(value, length));
            }
            byte[] longer = Arrays.copyOf(value, value.length + 1);
            assertSameVerdict(scanner, longer);
            assertThrows(SerializationException.class, () -> scan(scanner, longer));
        }
    }

    @Test
    public void agreesWithTheDeserializerOnCorruptedValues() throws Exception {
        Random random = new Random(11);
        EventScanner scanner = new EventScanner(registry);
        int refused = 0;
        for (int n = 0; n < 5_000; n++) {
            byte[] value = encode(EVERYTHING, everything(random));
            for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                int at = WireFormat.PAYLOAD_OFFSET + random.nextInt(value.length - WireFormat.PAYLOAD_OFFSET);
                value[at] = (byte) random.nextInt(256);
            }
            refused += assertSameVerdict(scanner, value) ? 0 : 1;
        }
        assertTrue("corruptions the two refused: " + refused, refused > 500);
    }

    @Test
    public void refusesWhatIsNotAnAvroEventRecord() throws Exception {
        EventScanner scanner = new EventScanner(registry);
        SerializationException notAvro = assertThrows(SerializationException.class,
            () -> scan(scanner, "not avro".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        assertTrue(notAvro.getMessage(), notAvro.getMessage().contains("magic byte"));
        byte[] unknownId = {0, 0x7f, 0, 0, 1, 2};
        assertThrows(SerializationException.class, () -> scan(scanner, unknownId));
        Schema string = Schema.create(Schema.Type.STRING);
        byte[] notARecord = encode(string, new org.apache.avro.util.Utf8("an event?"));
        SerializationException refused = assertThrows(SerializationException.class, () -> scan(scanner, notARecord));
        assertTrue(refused.getMessage(), refused.getMessage().contains("not a record"));
    }

    /** Whether both accepted {@code value} (and then found the same time); fails when only one of them did. */
    private static boolean assertSameVerdict(EventScanner scanner, byte[] value) {
        GenericRecord decoded;
        try {
            decoded = new AvroDeserializer<GenericRecord>(registry).deserialize("t", value);
        } catch (SerializationException e) {
            decoded = null;
        }
        MillraceValue scanned;
        try {
            scanned = scan(scanner, value);
        } catch (SerializationException e) {
            scanned = null;
        }
        assertEquals("accepted by the deserializer and by the scanner: " + Arrays.toString(value), decoded != null, scanned != null);
        if (decoded != null) {
            assertEquals(EventTime.of(decoded, TIMESTAMP), scanned.eventTime());
        }
        return decoded != null;
    }

    private static MillraceValue scan(EventScanner scanner, byte[] value) {
        MillraceValue holder = new MillraceValue();
        holder.set(TIMESTAMP, null, value);
        scanner.scan("t", value, holder);
        return holder;
    }

    private static byte[] encode(Schema schema, Object datum) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        WireFormat.writePrefix(out, ids.get(schema));
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<>(schema).write(datum, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    private static GenericRecord everything(Random random) {
        GenericRecord header = new GenericData.Record(EventHeaders.SCHEMA);
        header.put(EventHeaders.TIME_FIELD, random.nextBoolean() ? null : random.nextLong() >> random.nextInt(64));
        header.put(EventHeaders.SERVER_FIELD, random.nextBoolean() ? null : text(random));
        header.put(EventHeaders.SERVICE_FIELD, text(random));
        header.put(EventHeaders.ID_FIELD, random.nextBoolean() ? null : text(random));
        GenericRecord r = new GenericData.Record(EVERYTHING);
        r.put("i", random.nextInt() >> random.nextInt(32));
        r.put("flag", random.nextBoolean());
        r.put("f", random.nextFloat());
        r.put(EventHeaders.HEADER_FIELD, header);
        r.put("l", random.nextLong() >> random.nextInt(64));
        r.put("d", random.nextDouble());
        byte[] bytes = new byte[random.nextInt(20)];
        random.nextBytes(bytes);
        r.put("b", ByteBuffer.wrap(bytes));
        r.put("s", text(random));
        byte[] four = new byte[4];
        random.nextBytes(four);
        r.put("fixed", new GenericData.Fixed(EVERYTHING.getField("fixed").schema(), four));
        r.put("kind", new GenericData.EnumSymbol(KIND, KIND.getEnumSymbols().get(random.nextInt(3))));
        List<GenericRecord> tags = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            tags.add(tag(random));
        }
        r.put("tags", tags);
        Map<String, Long> counts = new HashMap<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            counts.put(text(random), random.nextBoolean() ? null : random.nextLong());
        }
        r.put("counts", counts);
        r.put("maybeTag", random.nextBoolean() ? null : tag(random));
        return r;
    }

    private static GenericRecord tag(Random random) {
        GenericRecord tag = new GenericData.Record(TAG);
        tag.put("name", text(random));
        tag.put("weight", random.nextBoolean() ? null : random.nextDouble());
        return tag;
    }

    private static String text(Random random) {
        StringBuilder s = new StringBuilder();
        for (int i = random.nextInt(12); i > 0; i--) {
            s.append((char) ('a' + random.nextInt(26)));
        }
        return s.toString();
    }
}
