package io.millrace.examples.hive;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.log.MessageTimestampConfig;
import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.serialization.StringSerializer;
import io.millrace.hadoop.HourLayout;
import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.load.LoadJob;
import io.millrace.hadoop.state.LoadSummary;
import io.millrace.producer.ProducerRecord;
import io.millrace.producer.avro.AvroEventProducer;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.client.SchemaRegistryClientConfig;
import io.millrace.schemaregistry.serde.EventHeaders;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.junit.Test;

/**
 * The demo's Hive stage over data the loader really loaded: events of two topics produced to a broker in this
 * JVM, hours across a new year, one {@link LoadJob} on the LocalJobRunner in the loader's default layout (the
 * demo's), then {@link HiveStage} with embedded Hive, whose counts per topic and hour must be exactly what was
 * produced.
 */
public class HiveStageIT {

    /** Events per topic and hour; some hours hold a single event, and the topics share only one hour. */
    private static final Map<String, Map<Instant, Integer>> PRODUCED = new LinkedHashMap<>();

    static {
        Map<Instant, Integer> views = new LinkedHashMap<>();
        views.put(Instant.parse("2026-12-31T23:00:00Z"), 700);
        views.put(Instant.parse("2027-01-01T00:00:00Z"), 450);
        views.put(Instant.parse("2027-01-01T05:00:00Z"), 1);
        PRODUCED.put("page-views", views);
        Map<Instant, Integer> calls = new LinkedHashMap<>();
        calls.put(Instant.parse("2026-12-31T23:00:00Z"), 1);
        calls.put(Instant.parse("2027-01-01T01:00:00Z"), 260);
        PRODUCED.put("service-calls", calls);
    }

    private static final Schema EVENT = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"StageEvent\","
        + "\"namespace\":\"io.millrace.test\",\"fields\":[{\"name\":\"header\",\"type\":" + EventHeaders.SCHEMA
        + "},{\"name\":\"what\",\"type\":\"string\"}]}");

    @Test
    public void hiveCountsWhatWasLoadedPerTopicAndHour() throws Exception {
        Path dir = Path.of(System.getProperty("hive.stage.it.dir", "target/hive-stage-it")).toAbsolutePath();
        delete(dir);
        // the hours lie around a new year, perhaps ahead of today's clock: the broker must take them
        try (LocalCluster cluster = LocalCluster.start(1, Map.of(MessageTimestampConfig.LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG,
                Long.MAX_VALUE));
             SchemaRegistryServer registry = SchemaRegistryServer.startLocal(cluster.zookeeperConnect())) {
            String registryUrl = registry.urls().get(0);
            for (Map.Entry<String, Map<Instant, Integer>> topic : PRODUCED.entrySet()) {
                produce(cluster, registryUrl, topic.getKey(), topic.getValue());
            }
            LoadSummary loaded = load(cluster, registryUrl, dir);
            assertEquals(expected().stream().mapToLong(TopicHourCount::events).sum(), loaded.records());

            ByteArrayOutputStream table = new ByteArrayOutputStream();
            Path counts = dir.resolve("counts.tsv");
            int status = HiveStage.run(new String[] {"--data-root", dir.resolve("data").toUri().toString(),
                "--schema-registry", registryUrl, "--topics", String.join(",", PRODUCED.keySet()), "--dir",
                dir.resolve("hive").toString(), "--counts", counts.toString()},
                new PrintStream(table, true, StandardCharsets.UTF_8), System.err);
            String printed = table.toString(StandardCharsets.UTF_8);
            assertEquals(printed, 0, status);
            assertEquals(expected(), Files.readAllLines(counts).stream().map(TopicHourCount::parse).toList());
            assertTrue(printed, printed.contains("table page_views over " + dir.resolve("data").toUri().toString()
                .replaceAll("/$", "") + "/page-views/hourly, 3 hourly partitions"));
            assertTrue(printed, printed.contains(String.format(Locale.ROOT, "%-16s %-14s %,12d", "page-views", "total", 1_151)));
            assertTrue(printed, printed.contains(String.format(Locale.ROOT, "%-16s %-14s %,12d", "service-calls",
                "2027-01-01T01", 260)));
        }
    }

    @Test
    public void aCommandLineWithoutTheDataRootIsRefused() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = HiveStage.run(new String[] {"--topics", "page-views"}, System.out,
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, status);
        assertTrue(err.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8).contains("--data-root is required"));
    }

    private static List<TopicHourCount> expected() {
        List<TopicHourCount> expected = new ArrayList<>();
        PRODUCED.forEach((topic, hours) -> hours.forEach((hour, events) ->
            expected.add(new TopicHourCount(topic, HourLayout.label(hour.toEpochMilli()), events))));
        expected.sort(Comparator.comparing(TopicHourCount::topic).thenComparing(TopicHourCount::hour));
        return expected;
    }

    /** Sends every hour's events to a new topic of two partitions, each with a header time inside its hour. */
    private static void produce(LocalCluster cluster, String registryUrl, String topic, Map<Instant, Integer> hours)
        throws Exception {
        cluster.createTopic(topic, 2);
        Map<String, Object> props = Map.of("bootstrap.servers", cluster.bootstrapServers(), "linger.ms", 5,
            "auto.register.schemas", true);
        SchemaRegistryClient registry = new SchemaRegistryClient(Map.of(SchemaRegistryClientConfig.URL_CONFIG, registryUrl));
        try (AvroEventProducer<String, GenericRecord> producer = new AvroEventProducer<>(props, new StringSerializer(),
            registry)) {
            List<Future<?>> acks = new ArrayList<>();
            int n = 0;
            for (Map.Entry<Instant, Integer> hour : hours.entrySet()) {
                for (int i = 0; i < hour.getValue(); i++, n++) {
                    Instant time = hour.getKey().plusMillis((i * 7_919L) % 3_600_000L);
                    acks.add(producer.send(new ProducerRecord<>(topic, n % 2, "key-" + n, event(time, topic, n))));
                }
            }
            for (Future<?> ack : acks) {
                ack.get();
            }
        }
    }

    private static GenericRecord event(Instant time, String topic, int n) {
        GenericRecord header = new GenericData.Record(EventHeaders.SCHEMA);
        header.put(EventHeaders.TIME_FIELD, time.toEpochMilli());
        header.put(EventHeaders.SERVER_FIELD, "web-" + n % 3);
        header.put(EventHeaders.SERVICE_FIELD, "frontend");
        header.put(EventHeaders.ID_FIELD, topic + "-" + n);
        GenericRecord event = new GenericData.Record(EVENT);
        event.put(EventHeaders.HEADER_FIELD, header);
        event.put("what", topic);
        return event;
    }

    /** One load of every topic into {@code <dir>/data} on the LocalJobRunner, as the demo's load runs. */
    private static LoadSummary load(LocalCluster cluster, String registryUrl, Path dir) throws IOException, InterruptedException {
        Map<String, Object> settings = new HashMap<>();
        settings.put("bootstrap.servers", cluster.bootstrapServers());
        settings.put(LoadConfig.SCHEMA_REGISTRY_URL_CONFIG, registryUrl);
        settings.put(LoadConfig.TOPICS_CONFIG, String.join(",", PRODUCED.keySet()));
        settings.put(LoadConfig.DATA_ROOT_CONFIG, dir.resolve("data").toUri().toString());
        settings.put(LoadConfig.STATE_DIR_CONFIG, dir.resolve("state").toUri().toString());
        Configuration conf = new Configuration();
        conf.set("mapreduce.framework.name", "local");
        conf.set("fs.defaultFS", "file:///");
        conf.set("hadoop.tmp.dir", dir.resolve("hadoop-tmp").toString());
        return new LoadJob(new LoadConfig(settings), conf).run();
    }

    private static void delete(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }
}
