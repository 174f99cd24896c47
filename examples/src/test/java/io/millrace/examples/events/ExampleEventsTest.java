package io.millrace.examples.events;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.events.EventHeader;
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
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The example events as generated SpecificRecord classes, through a real broker and registry: sent,
 * fetched back equal, and an event written with an older schema read into the current class.
 */
public class ExampleEventsTest {

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

    private static final EventHeaders HEADERS = new EventHeaders(new MockTime(1_700_000_000_000L), "web-3");

    private static EventHeader header(String service) {
        return EventHeader.newBuilder().setService(service).build();
    }

    static PageViewEvent pageView(int i) {
        return PageViewEvent.newBuilder().setHeader(header("frontend")).setMemberId(i % 2 == 0 ? null : (long) i)
            .setPageKey("profile").setUrl("/in/member-" + i).build();
    }

    static SearchEvent search(int i) {
        return SearchEvent.newBuilder().setHeader(header("search")).setQuery("engineer " + i)
            .setVertical(SearchVertical.JOBS).setResultCount(40 + i).setShownIds(List.of("job-" + i, "job-" + (i + 1))).build();
    }

    static ServiceCallEvent serviceCall(int i) {
        return ServiceCallEvent.newBuilder().setHeader(header("frontend")).setCallee("profiles")
            .setMethod("GET /profiles/{id}").setDurationMs(3 + i).setStatus(i == 2 ? 503 : 200)
            .setError(i == 2 ? "overloaded" : null).build();
    }

    @Test
    public void everyExampleSchemaCarriesTheEventHeaderShippedWithTheSerdes() {
        // the generated class's schema differs only in its avro.java.string properties
        assertEquals(SchemaNormalization.toParsingForm(EventHeaders.SCHEMA),
            SchemaNormalization.toParsingForm(EventHeader.getClassSchema()));
        for (Schema schema : List.of(PageViewEvent.getClassSchema(), SearchEvent.getClassSchema(),
                ServiceCallEvent.getClassSchema())) {
            EventHeaders.validate(schema);
        }
    }

    @Test
    public void theHeaderOfAGeneratedEventIsFilledIn() {
        PageViewEvent view = pageView(1);
        assertEquals(1_700_000_000_000L, HEADERS.fill(view));
        assertEquals(Long.valueOf(1_700_000_000_000L), view.getHeader().getTime());
        assertEquals("web-3", view.getHeader().getServer());
        assertEquals("frontend", view.getHeader().getService());
        assertEquals(36, view.getHeader().getId().length());
    }

    @Test
    public void generatedEventsComeBackEqualThroughTheBroker() throws Exception {
        // one event type per topic: the subject <topic>-value holds the versions of one schema
        Map<String, List<SpecificRecord>> sent = Map.of("page-view-events", new ArrayList<>(),
            "search-events", new ArrayList<>(), "service-call-events", new ArrayList<>());
        for (int i = 0; i < 4; i++) {
            sent.get("page-view-events").add(pageView(i));
            sent.get("search-events").add(search(i));
            sent.get("service-call-events").add(serviceCall(i));
        }
        for (Map.Entry<String, List<SpecificRecord>> topic : sent.entrySet()) {
            topic.getValue().forEach(event -> HEADERS.fill((IndexedRecord) event));
            cluster.createTopic(topic.getKey(), 1);
            produce(topic.getKey(), topic.getValue(), autoRegistering());
            assertEquals(topic.getValue(), consume(topic.getKey(), topic.getValue().size()));
        }
    }

    @Test
    public void anEventWrittenWithAnOlderSchemaIsReadIntoTheCurrentClass() throws Exception {
        // PageViewEvent before memberId and referrer were added (both with defaults: a BACKWARD-compatible change)
        Schema oldSchema = SchemaBuilder.record("PageViewEvent").namespace("io.millrace.examples.events").fields()
            .name("header").type(EventHeaders.SCHEMA).noDefault()
            .requiredString("pageKey").requiredString("url")
            .endRecord();
        GenericRecord oldHeader = new GenericRecordBuilder(EventHeaders.SCHEMA).set("time", 42L).set("server", "old-1")
            .set("service", "frontend").set("id", "7d0f5a8e-3f7e-4c39-8d1b-0b7f6cfa1c2e").build();
        GenericRecord oldEvent = new GenericRecordBuilder(oldSchema).set("header", oldHeader)
            .set("pageKey", "home").set("url", "/").build();
        PageViewEvent current = pageView(3);
        HEADERS.fill(current);

        cluster.createTopic("page-views", 1);
        produce("page-views", List.of(oldEvent, current), autoRegistering());
        assertEquals(List.of(1, 2), client.versions("page-views-value"));
        List<Object> read = consume("page-views", 2);

        PageViewEvent upgraded = (PageViewEvent) read.get(0);
        assertEquals("/", upgraded.getUrl());
        assertEquals("home", upgraded.getPageKey());
        assertEquals(null, upgraded.getMemberId());
        assertEquals(null, upgraded.getReferrer());
        assertEquals(new EventHeader(42L, "old-1", "frontend", "7d0f5a8e-3f7e-4c39-8d1b-0b7f6cfa1c2e"), upgraded.getHeader());
        assertEquals(current, read.get(1));
    }

    private static AvroSerializer<Object> autoRegistering() {
        return new AvroSerializer<>(client, Map.of(AvroSerdeConfig.AUTO_REGISTER_SCHEMAS_CONFIG, true));
    }

    private static void produce(String topic, List<?> events, AvroSerializer<Object> avro) throws Exception {
        Properties props = new Properties();
        props.put("bootstrap.servers", cluster.bootstrapServers());
        props.put("enable.idempotence", "false");
        props.put("acks", "1");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (Object event : events) {
                producer.send(new ProducerRecord<>(topic, avro.serialize(topic, event))).get(30, TimeUnit.SECONDS);
            }
        }
    }

    private static List<Object> consume(String topic, int count) {
        AvroDeserializer<Object> avro = new AvroDeserializer<>(client, Map.of(AvroSerdeConfig.SPECIFIC_AVRO_READER_CONFIG, true));
        Properties props = new Properties();
        props.put("bootstrap.servers", cluster.bootstrapServers());
        props.put("enable.auto.commit", "false");
        List<Object> read = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seek(partition, 0);
            long deadline = System.currentTimeMillis() + 30_000;
            while (read.size() < count && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    Object event = avro.deserialize(topic, record.value());
                    assertNotNull(event);
                    assertTrue(event.getClass().getName(), event instanceof SpecificRecord);
                    read.add(event);
                }
            }
        }
        assertEquals(count, read.size());
        return read;
    }
}
