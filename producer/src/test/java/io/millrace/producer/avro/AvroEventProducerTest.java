package io.millrace.producer.avro;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.serialization.SerializationException;
import io.millrace.common.serialization.StringSerializer;
import io.millrace.producer.MillraceProducer;
import io.millrace.producer.ProducerRecord;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.client.SchemaRegistryClientConfig;
import io.millrace.schemaregistry.serde.AvroDeserializer;
import io.millrace.schemaregistry.serde.AvroSerdeConfig;
import io.millrace.schemaregistry.serde.AvroSerializer;
import io.millrace.schemaregistry.serde.EventHeaders;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import io.millrace.testkit.MockTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/** Tracked events through a real broker and registry: headers filled in, timestamps from the header, non-events refused. */
public class AvroEventProducerTest {

    static final Schema CLICK = SchemaBuilder.record("Click").namespace("io.millrace.test").fields()
        .name("header").type(EventHeaders.SCHEMA).noDefault()
        .requiredString("target")
        .endRecord();

    private static final AtomicInteger TOPICS = new AtomicInteger();
    private static LocalCluster cluster;
    private static SchemaRegistryServer registry;
    private static SchemaRegistryClient client;

    @BeforeClass
    public static void start() throws Exception {
        cluster = LocalCluster.start();
        registry = SchemaRegistryServer.startLocal(cluster.zookeeperConnect());
        client = new SchemaRegistryClient(Map.of(SchemaRegistryClientConfig.URL_CONFIG, registry.urls().get(0)));
    }

    @AfterClass
    public static void stop() {
        if (registry != null) {
            registry.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static String newTopic() throws InterruptedException {
        String topic = "tracked-" + TOPICS.incrementAndGet();
        cluster.createTopic(topic, 1);
        return topic;
    }

    private static Map<String, Object> props(boolean autoRegister) {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", cluster.bootstrapServers());
        props.put("linger.ms", 5);
        props.put(AvroSerdeConfig.SCHEMA_REGISTRY_URL_CONFIG, registry.urls().get(0));
        props.put(AvroSerdeConfig.AUTO_REGISTER_SCHEMAS_CONFIG, autoRegister);
        return props;
    }

    static GenericRecord click(String target, Long time) {
        GenericRecord header = new GenericRecordBuilder(EventHeaders.SCHEMA).set("service", "shop").set("time", time).build();
        return new GenericRecordBuilder(CLICK).set("header", header).set("target", target).build();
    }

    @Test
    public void headersAreFilledInAndTheEventTimeIsTheRecordTimestamp() throws Exception {
        String topic = newTopic();
        long now = System.currentTimeMillis();
        EventHeaders headers = new EventHeaders(new MockTime(now), "web-9");
        List<GenericRecord> sent = new ArrayList<>();
        try (AvroEventProducer<String, GenericRecord> producer = new AvroEventProducer<>(new MillraceProducer<>(props(true),
                new StringSerializer(), new AvroSerializer<>(client)), headers)) {
            for (int i = 0; i < 6; i++) {
                GenericRecord click = click("item-" + i, i % 2 == 0 ? null : now - 60_000 + i);
                sent.add(click);
                producer.send(new ProducerRecord<>(topic, null, 5L, "k" + i, click, null)).get(30, TimeUnit.SECONDS);
            }
        }
        List<ConsumerRecord<byte[], byte[]>> stored = readAll(topic, sent.size());
        AvroDeserializer<GenericRecord> avro = new AvroDeserializer<>(client);
        for (int i = 0; i < sent.size(); i++) {
            GenericRecord header = (GenericRecord) avro.deserialize(topic, stored.get(i).value()).get("header");
            long expectedTime = i % 2 == 0 ? now : now - 60_000 + i;
            assertEquals(expectedTime, header.get("time"));
            assertEquals(expectedTime, stored.get(i).timestamp());
            assertEquals("web-9", header.get("server").toString());
            assertEquals("shop", header.get("service").toString());
            assertEquals(sent.get(i).get("header").toString(), header.toString());
            UUID.fromString(header.get("id").toString());
        }
    }

    @Test
    public void valuesThatAreNotTrackedEventsAreRefusedBeforeSending() throws Exception {
        String topic = newTopic();
        Schema plain = SchemaBuilder.record("Plain").namespace("io.millrace.test").fields().requiredString("target").endRecord();
        try (AvroEventProducer<String, GenericRecord> producer = new AvroEventProducer<>(props(true), new StringSerializer(), client)) {
            IllegalArgumentException noField = assertThrows(IllegalArgumentException.class,
                () -> producer.send(new ProducerRecord<>(topic, new GenericRecordBuilder(plain).set("target", "x").build())));
            assertTrue(noField.getMessage(), noField.getMessage().contains("header"));
            GenericRecord headless = new GenericData.Record(CLICK);
            headless.put("target", "x");
            assertThrows(IllegalArgumentException.class, () -> producer.send(new ProducerRecord<>(topic, headless)));
            assertThrows(IllegalArgumentException.class, () -> producer.send(new ProducerRecord<>(topic, "key", null)));
        }
        assertTrue(client.subjects().stream().noneMatch((topic + "-value")::equals));
    }

    @Test
    public void withoutAutoRegistrationTheSchemaMustBeRegisteredFirst() throws Exception {
        String topic = newTopic();
        try (AvroEventProducer<String, GenericRecord> producer = new AvroEventProducer<>(props(false), new StringSerializer())) {
            SerializationException e = assertThrows(SerializationException.class,
                () -> producer.send(new ProducerRecord<>(topic, click("a", null))));
            assertTrue(e.getMessage(), e.getMessage().contains(topic + "-value"));
            client.register(topic + "-value", CLICK);
            producer.send(new ProducerRecord<>(topic, click("b", null))).get(30, TimeUnit.SECONDS);
        }
        assertEquals(1, readAll(topic, 1).size());
    }

    private static List<ConsumerRecord<byte[], byte[]>> readAll(String topic, int count) {
        Properties props = new Properties();
        props.put("bootstrap.servers", cluster.bootstrapServers());
        props.put("enable.auto.commit", "false");
        List<ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seek(partition, 0);
            long deadline = System.currentTimeMillis() + 30_000;
            while (read.size() < count && System.currentTimeMillis() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(read::add);
            }
        }
        assertEquals(count, read.size());
        return read;
    }
}
