package io.millrace.examples;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.TopicPartition;
import io.millrace.common.serialization.StringDeserializer;
import io.millrace.common.serialization.StringSerializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.consumer.PartitionReader;
import io.millrace.events.EventHeader;
import io.millrace.examples.events.PageViewEvent;
import io.millrace.producer.ProducerRecord;
import io.millrace.producer.avro.AvroEventProducer;
import io.millrace.schemaregistry.serde.AvroDeserializer;
import io.millrace.schemaregistry.serde.AvroSerdeConfig;
import io.millrace.schemaregistry.server.SchemaRegistryConfig;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Tracked Avro events end to end in one JVM: ZooKeeper, a broker and a schema registry start, an
 * {@link AvroEventProducer} sends page views (their header filled in, their schema registered on
 * first use, since the demo configuration turns {@code auto.register.schemas} on), and a
 * {@link PartitionReader} with the {@link AvroDeserializer} reads them back as
 * {@link PageViewEvent} objects. {@code bin/millrace avro-demo} runs it.
 */
public final class AvroEventsDemo {

    public static final String TOPIC = "page-view-events";
    public static final int EVENTS = 10;

    private AvroEventsDemo() {
    }

    /** What the demo's producer is given: the broker, the registry, and schemas registered on first use. */
    public static Map<String, Object> producerConfig(String bootstrapServers, String registryUrl) {
        return Map.of("bootstrap.servers", bootstrapServers, "linger.ms", 5,
            AvroSerdeConfig.SCHEMA_REGISTRY_URL_CONFIG, registryUrl,
            AvroSerdeConfig.AUTO_REGISTER_SCHEMAS_CONFIG, true);
    }

    public static void main(String[] args) throws Exception {
        try (LocalCluster cluster = LocalCluster.start()) {
            run(cluster, System.out);
        }
        System.out.println("Stopped the registry, the broker and ZooKeeper; deleted their data.");
    }

    /** Sends {@link #EVENTS} page views through {@code cluster} and returns them as read back. */
    public static List<PageViewEvent> run(LocalCluster cluster, PrintStream out) throws Exception {
        try (SchemaRegistryServer registry = startRegistry(cluster)) {
            String url = registry.urls().get(0);
            out.println("Schema registry at " + url + ", broker at " + cluster.bootstrapServers());
            cluster.createTopic(TOPIC, 1);
            send(producerConfig(cluster.bootstrapServers(), url), out);
            List<PageViewEvent> read = readBack(cluster.bootstrapServers(), url);
            read.forEach(event -> out.println("read   " + event));
            return read;
        }
    }

    private static SchemaRegistryServer startRegistry(LocalCluster cluster) throws InterruptedException {
        return new SchemaRegistryServer(new SchemaRegistryConfig(Map.of(
            SchemaRegistryConfig.LISTENERS_CONFIG, "http://127.0.0.1:0",
            SchemaRegistryConfig.ZOOKEEPER_CONNECT_CONFIG, cluster.zookeeperConnect()))).start();
    }

    private static void send(Map<String, Object> config, PrintStream out) throws Exception {
        try (AvroEventProducer<String, PageViewEvent> producer = new AvroEventProducer<>(config, new StringSerializer())) {
            for (int i = 0; i < EVENTS; i++) {
                PageViewEvent view = PageViewEvent.newBuilder()
                    .setHeader(EventHeader.newBuilder().setService("frontend").build())
                    .setMemberId(i % 3 == 0 ? null : 1000L + i).setPageKey(i % 2 == 0 ? "profile" : "feed")
                    .setUrl("/page/" + i).build();
                producer.send(new ProducerRecord<>(TOPIC, "member-" + view.getMemberId(), view)).get(30, TimeUnit.SECONDS);
                out.println("sent   " + view);
            }
        }
    }

    private static List<PageViewEvent> readBack(String bootstrapServers, String registryUrl) {
        Map<String, Object> config = Map.of("bootstrap.servers", bootstrapServers,
            AvroSerdeConfig.SCHEMA_REGISTRY_URL_CONFIG, registryUrl, AvroSerdeConfig.SPECIFIC_AVRO_READER_CONFIG, true);
        AvroDeserializer<PageViewEvent> avro = new AvroDeserializer<>();
        avro.configure(config, false);
        List<PageViewEvent> read = new ArrayList<>();
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(config))) {
            Iterator<ConsumerRecord<String, PageViewEvent>> records =
                reader.read(new TopicPartition(TOPIC, 0), 0, EVENTS, new StringDeserializer(), avro);
            records.forEachRemaining(record -> read.add(record.value()));
        }
        return read;
    }
}
