package io.millrace.schemaregistry.serde;

import static io.millrace.schemaregistry.serde.AvroSerdeTest.VIEW_V1;
import static io.millrace.schemaregistry.serde.AvroSerdeTest.VIEW_V2;
import static io.millrace.schemaregistry.serde.AvroSerdeTest.view;
import static org.junit.Assert.assertEquals;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.client.SchemaRegistryClientConfig;
import io.millrace.schemaregistry.server.Registries;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/** GenericRecords through a real broker and registry: written with two versions of a schema, read with the newer one. */
public class AvroThroughBrokerTest {

    private static final String TOPIC = "page-views";

    private static LocalCluster cluster;
    private static SchemaRegistryServer registry;

    @BeforeClass
    public static void start() throws Exception {
        cluster = LocalCluster.start();
        registry = Registries.start(cluster.zookeeperConnect(), Map.of());
        cluster.createTopic(TOPIC, 1);
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

    private static SchemaRegistryClient newClient() {
        return new SchemaRegistryClient(Map.of(SchemaRegistryClientConfig.URL_CONFIG, registry.urls().get(0)));
    }

    @Test
    public void eventsOfTwoSchemaVersionsAreReadBackWithTheNewerOne() throws Exception {
        List<GenericRecord> sent = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            GenericRecord view = view(i < 5 ? VIEW_V1 : VIEW_V2, "/page/" + i);
            if (i >= 5) {
                view.put("referrer", "/from/" + i);
            }
            sent.add(view);
        }
        produce(sent);
        List<GenericRecord> read = consume(sent.size(), new AvroDeserializer<>(newClient(), VIEW_V2));
        for (int i = 0; i < sent.size(); i++) {
            GenericRecord view = read.get(i);
            assertEquals(VIEW_V2, view.getSchema());
            assertEquals("/page/" + i, view.get("url").toString());
            assertEquals(i < 5 ? "(direct)" : "/from/" + i, view.get("referrer").toString());
        }
        assertEquals(List.of(1, 2), newClient().versions(TOPIC + "-value"));
    }

    private static void produce(List<GenericRecord> values) throws Exception {
        Properties props = new Properties();
        props.put("bootstrap.servers", cluster.bootstrapServers());
        props.put("enable.idempotence", "false");
        props.put("acks", "1");
        AvroSerializer<GenericRecord> avro = new AvroSerializer<>(newClient(),
            Map.of(AvroSerdeConfig.AUTO_REGISTER_SCHEMAS_CONFIG, true));
        try (KafkaProducer<String, GenericRecord> producer = new KafkaProducer<>(props, new StringSerializer(),
                KafkaClientAdapters.serializer(avro))) {
            for (GenericRecord value : values) {
                producer.send(new ProducerRecord<>(TOPIC, value.get("url").toString(), value)).get(30, TimeUnit.SECONDS);
            }
        }
    }

    private static List<GenericRecord> consume(int count, AvroDeserializer<GenericRecord> avro) {
        Properties props = new Properties();
        props.put("bootstrap.servers", cluster.bootstrapServers());
        props.put("enable.auto.commit", "false");
        List<GenericRecord> read = new ArrayList<>();
        try (KafkaConsumer<String, GenericRecord> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                KafkaClientAdapters.deserializer(avro))) {
            TopicPartition partition = new TopicPartition(TOPIC, 0);
            consumer.assign(List.of(partition));
            consumer.seek(partition, 0);
            long deadline = System.currentTimeMillis() + 30_000;
            while (read.size() < count && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, GenericRecord> record : consumer.poll(Duration.ofMillis(200))) {
                    read.add(record.value());
                }
            }
        }
        assertEquals(count, read.size());
        return read;
    }
}
