package io.millrace.schemaregistry.serde;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.client.SchemaRegistryClientConfig;
import io.millrace.schemaregistry.server.Registries;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import io.millrace.testkit.PythonEnvironment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
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
 * Confluent's Python client (confluent-kafka, with its schema registry client and Avro serializer
 * and deserializer), installed from PyPI into a virtual environment under target/, against a
 * Millrace registry and broker: what Confluent's serializer writes, Millrace's deserializer reads,
 * and the other way round, each side finding the writer's schema in the registry by the id in the
 * record. avro_clients.py also checks the registry client's reads and compatibility tests. Skipped
 * with the reason without python3 or PyPI.
 */
public class ConfluentPythonClientIT {

    /** Pinned so that the build is repeatable; its extras bring the registry client and fastavro. */
    private static final String CONFLUENT_KAFKA = "confluent-kafka[avro,schemaregistry]==2.12.2";
    private static final Path SCRIPT = Path.of("target", "test-classes", "confluent", "avro_clients.py");
    private static final Schema PAGE_VIEW = SchemaBuilder.record("PageView").namespace("io.millrace.confluent").fields()
        .requiredString("url")
        .requiredLong("ms")
        .endRecord();

    private static PythonEnvironment python;
    private static LocalCluster cluster;
    private static SchemaRegistryServer registry;

    @BeforeClass
    public static void start() throws Exception {
        python = PythonEnvironment.install(Path.of("target", "confluent-venv"), CONFLUENT_KAFKA);
        cluster = LocalCluster.start();
        registry = Registries.start(cluster.zookeeperConnect(), Map.of());
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

    @Test(timeout = 240_000)
    public void confluentsDeserializerReadsWhatMillracesSerializerWrote() throws Exception {
        cluster.createTopic("millrace-written", 1);
        AvroSerializer<GenericRecord> avro = new AvroSerializer<>(newClient(),
            Map.of(AvroSerdeConfig.AUTO_REGISTER_SCHEMAS_CONFIG, true));
        Properties props = clientProps();
        props.put("enable.idempotence", "false");
        try (KafkaProducer<byte[], GenericRecord> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                KafkaClientAdapters.serializer(avro))) {
            for (int i = 0; i < 5; i++) {
                GenericRecord view = new GenericRecordBuilder(PAGE_VIEW).set("url", "/millrace/" + i).set("ms", 1_000L * i).build();
                producer.send(new ProducerRecord<>("millrace-written", 0, null, view)).get(30, TimeUnit.SECONDS);
            }
        }
        PythonEnvironment.Result read = script("read", "millrace-written", 5);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            expected.add("{\"ms\": " + 1_000L * i + ", \"url\": \"/millrace/" + i + "\"}");
        }
        assertEquals(read.output(), expected, read.output().lines().filter(l -> l.startsWith("{")).toList());
    }

    @Test(timeout = 240_000)
    public void millracesDeserializerReadsWhatConfluentsSerializerWrote() throws Exception {
        cluster.createTopic("confluent-written", 1);
        PythonEnvironment.Result written = script("write", "confluent-written", 5);
        assertTrue(written.output(), written.output().contains("written 5 with schema id"));

        AvroDeserializer<GenericRecord> avro = new AvroDeserializer<>(newClient());
        List<GenericRecord> read = new ArrayList<>();
        Properties props = clientProps();
        props.put("enable.auto.commit", "false");
        try (KafkaConsumer<byte[], GenericRecord> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                KafkaClientAdapters.deserializer(avro))) {
            TopicPartition partition = new TopicPartition("confluent-written", 0);
            consumer.assign(List.of(partition));
            consumer.seek(partition, 0);
            long deadline = System.currentTimeMillis() + 30_000;
            while (read.size() < 5 && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<byte[], GenericRecord> record : consumer.poll(Duration.ofMillis(200))) {
                    read.add(record.value());
                }
            }
        }
        assertEquals(5, read.size());
        for (int i = 0; i < 5; i++) {
            assertEquals("/confluent/" + i, read.get(i).get("url").toString());
            assertEquals((long) i, read.get(i).get("ms"));
            assertEquals("io.millrace.confluent.PageView", read.get(i).getSchema().getFullName());
        }
        assertEquals(List.of(1), newClient().versions("confluent-written-value"));
    }

    private static PythonEnvironment.Result script(String mode, String topic, int count) throws Exception {
        PythonEnvironment.Result result = python.run(SCRIPT, List.of(mode, cluster.bootstrapServers(),
            registry.urls().get(0), topic, String.valueOf(count)), 200);
        assertEquals("avro_clients.py " + mode + " failed: " + result.output(), 0, result.exit());
        return result;
    }

    private static SchemaRegistryClient newClient() {
        return new SchemaRegistryClient(Map.of(SchemaRegistryClientConfig.URL_CONFIG, registry.urls().get(0)));
    }

    private static Properties clientProps() {
        Properties props = new Properties();
        props.put("bootstrap.servers", cluster.bootstrapServers());
        return props;
    }
}
