package io.millrace.hadoop.hive.it;

import io.millrace.broker.log.MessageTimestampConfig;
import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.serialization.StringSerializer;
import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.load.LoadJob;
import io.millrace.hadoop.state.LoadSummary;
import io.millrace.producer.ProducerRecord;
import io.millrace.producer.avro.AvroEventProducer;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.client.SchemaRegistryClientConfig;
import io.millrace.schemaregistry.serde.EventHeaders;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.Future;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;

/**
 * Page-view events loaded for real: ZooKeeper, a broker and a schema registry in this JVM, the events sent
 * with the Avro event producer (their schema registered on first use, as {@code <topic>-value}), then one
 * {@link LoadJob} on the LocalJobRunner into {@code <dir>/data}, its state in {@code <dir>/state}. What
 * the Hive tests count is what was produced here. Not thread-safe.
 */
final class LoadedPageViews implements AutoCloseable {

    private static final String[] PAGES = {"profile", "job-posting", "search", "feed"};

    private final LocalCluster cluster;
    private final SchemaRegistryServer registry;
    private final Path dir;

    private LoadedPageViews(LocalCluster cluster, SchemaRegistryServer registry, Path dir) {
        this.cluster = cluster;
        this.registry = registry;
        this.dir = dir;
    }

    static LoadedPageViews start(Path dir) throws IOException, InterruptedException {
        // The events carry fixed hours around a new year, which may lie ahead of today's clock: the broker
        // must take them (its default refuses timestamps more than an hour ahead).
        LocalCluster cluster = LocalCluster.start(1, Map.of(MessageTimestampConfig.LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG, Long.MAX_VALUE));
        try {
            return new LoadedPageViews(cluster, SchemaRegistryServer.startLocal(cluster.zookeeperConnect()), dir);
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    /** The examples module's {@code PageViewEvent}, a tracked event with the event header, read from its .avsc. */
    static Schema pageViewSchema() throws IOException {
        Schema.Parser parser = new Schema.Parser();
        parser.parse(EventHeaders.SCHEMA.toString());
        Path avsc = Path.of(System.getProperty("millrace.event.schemas", "../../examples/src/main/avro"), "PageViewEvent.avsc");
        return parser.parse(Files.readString(avsc, StandardCharsets.UTF_8));
    }

    SchemaRegistryClient registryClient() {
        return new SchemaRegistryClient(Map.of(SchemaRegistryClientConfig.URL_CONFIG, registry.urls().get(0)));
    }

    /**
     * Sends {@code counts.get(hour)} events of every hour to a new topic of {@code partitions} partitions,
     * each with a header time inside its hour, the hours interleaved so that every partition's offsets hop
     * between them; returns once every event is acknowledged.
     */
    void produce(String topic, int partitions, Map<Instant, Integer> counts) throws Exception {
        cluster.createTopic(topic, partitions);
        Schema schema = pageViewSchema();
        List<Instant> times = new ArrayList<>();
        counts.forEach((hour, count) -> {
            for (int i = 0; i < count; i++) {
                times.add(hour.plusMillis((i * 7_919L) % 3_600_000L));
            }
        });
        Collections.shuffle(times, new Random(42));
        Map<String, Object> props = Map.of("bootstrap.servers", cluster.bootstrapServers(), "linger.ms", 5,
            "auto.register.schemas", true);
        try (AvroEventProducer<String, GenericRecord> producer = new AvroEventProducer<>(props, new StringSerializer(),
            registryClient())) {
            List<Future<?>> acks = new ArrayList<>();
            for (int n = 0; n < times.size(); n++) {
                GenericRecord view = pageView(schema, times.get(n), n);
                acks.add(producer.send(new ProducerRecord<>(topic, n % partitions, "member-" + n % 97, view)));
            }
            for (Future<?> ack : acks) {
                ack.get();
            }
        }
    }

    private static GenericRecord pageView(Schema schema, Instant time, int n) {
        GenericRecord header = new GenericData.Record(schema.getField(EventHeaders.HEADER_FIELD).schema());
        header.put(EventHeaders.TIME_FIELD, time.toEpochMilli());
        header.put(EventHeaders.SERVER_FIELD, "web-" + n % 3);
        header.put(EventHeaders.SERVICE_FIELD, "frontend");
        header.put(EventHeaders.ID_FIELD, UUID.nameUUIDFromBytes(("view-" + n).getBytes(StandardCharsets.UTF_8)).toString());
        GenericRecord view = new GenericData.Record(schema);
        view.put(EventHeaders.HEADER_FIELD, header);
        view.put("memberId", n % 5 == 0 ? null : 1_000L + n % 97);
        view.put("pageKey", PAGES[n % PAGES.length]);
        view.put("url", "/in/member-" + n);
        view.put("referrer", n % 3 == 0 ? "https://www.example.com/?q=it's" : null);
        return view;
    }

    /** The settings of a load of {@code topic} into {@code <dir>/data}, hour directories in {@code layout}. */
    Map<String, Object> loadSettings(String topic, String layout) {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", cluster.bootstrapServers());
        props.put(LoadConfig.SCHEMA_REGISTRY_URL_CONFIG, registry.urls().get(0));
        props.put(LoadConfig.DATA_ROOT_CONFIG, dir.resolve("data").toUri().toString());
        props.put(LoadConfig.STATE_DIR_CONFIG, dir.resolve("state").toUri().toString());
        props.put(LoadConfig.TOPICS_CONFIG, topic);
        props.put(LoadConfig.LAYOUT_CONFIG, layout);
        // several map tasks, so that an hour gets files from more than one of them
        props.put(LoadConfig.MAX_SPLIT_RECORDS_CONFIG, 1_000);
        return props;
    }

    /** One load on the LocalJobRunner, on the local file system. */
    LoadSummary load(Map<String, Object> settings) throws IOException, InterruptedException {
        Configuration conf = new Configuration();
        conf.set("mapreduce.framework.name", "local");
        conf.set("fs.defaultFS", "file:///");
        conf.set("hadoop.tmp.dir", dir.resolve("hadoop-tmp").toString());
        conf.setInt("mapreduce.local.map.tasks.maximum", 2);
        return new LoadJob(new LoadConfig(settings), conf).run();
    }

    @Override
    public void close() {
        try {
            registry.close();
        } finally {
            cluster.close();
        }
    }
}
