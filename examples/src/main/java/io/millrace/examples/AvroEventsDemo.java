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
import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.load.LoadJob;
import io.millrace.hadoop.state.LoadSummary;
import io.millrace.schemaregistry.serde.AvroDeserializer;
import io.millrace.schemaregistry.serde.AvroSerdeConfig;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import java.io.PrintStream;
import java.util.ArrayList;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;

/**
 * Tracked Avro events end to end in one JVM: ZooKeeper, a broker and a schema registry start, an
 * {@link AvroEventProducer} sends page views (their header filled in, their schema registered on
 * first use, since the demo configuration turns {@code auto.register.schemas} on), and a
 * {@link PartitionReader} with the {@link AvroDeserializer} reads them back as
 * {@link PageViewEvent} objects. Then the Hadoop loader ({@link LoadJob}, on the LocalJobRunner)
 * files them as Avro container files by event hour under a local directory, with the offsets it
 * reached, as a scheduled load into HDFS would. {@code bin/millrace avro-demo} runs it.
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
        Path loadDir = Files.createTempDirectory("millrace-avro-demo-");
        try (LocalCluster cluster = LocalCluster.start()) {
            run(cluster, loadDir, System.out);
        }
        System.out.println("Stopped the registry, the broker and ZooKeeper; deleted their data. The loaded files stay in "
            + loadDir + ".");
    }

    /** What the demo read back with the consumer, and what the loader committed. */
    public record Outcome(List<PageViewEvent> read, LoadSummary loaded) {
    }

    /**
     * Sends {@link #EVENTS} page views through {@code cluster}, reads them back, and loads them into
     * {@code loadDir} ({@code data/} for the files, {@code state/} for the load's state).
     */
    public static Outcome run(LocalCluster cluster, Path loadDir, PrintStream out) throws Exception {
        try (SchemaRegistryServer registry = SchemaRegistryServer.startLocal(cluster.zookeeperConnect())) {
            String url = registry.urls().get(0);
            out.println("Schema registry at " + url + ", broker at " + cluster.bootstrapServers());
            cluster.createTopic(TOPIC, 1);
            send(producerConfig(cluster.bootstrapServers(), url), out);
            List<PageViewEvent> read = readBack(cluster.bootstrapServers(), url);
            read.forEach(event -> out.println("read   " + event));
            LoadSummary loaded = load(cluster.bootstrapServers(), url, loadDir);
            loaded.counts().forEach(hour -> out.println("loaded " + hour.records() + " event(s) of " + hour.topic()
                + " for hour " + hour.hour()));
            out.println("loaded " + loaded.records() + " events into " + loaded.files() + " Avro file(s) under "
                + loadDir.resolve("data"));
            return new Outcome(read, loaded);
        }
    }

    /** One load of the demo's topic into {@code dir}, on the LocalJobRunner: what {@code bin/millrace load} does. */
    private static LoadSummary load(String bootstrapServers, String registryUrl, Path dir) throws Exception {
        LoadConfig config = new LoadConfig(Map.of("bootstrap.servers", bootstrapServers,
            LoadConfig.SCHEMA_REGISTRY_URL_CONFIG, registryUrl,
            LoadConfig.TOPICS_CONFIG, TOPIC,
            LoadConfig.DATA_ROOT_CONFIG, dir.resolve("data").toUri().toString(),
            LoadConfig.STATE_DIR_CONFIG, dir.resolve("state").toUri().toString()));
        return new LoadJob(config, new Configuration()).run();
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
