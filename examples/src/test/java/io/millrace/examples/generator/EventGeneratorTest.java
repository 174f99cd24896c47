package io.millrace.examples.generator;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import io.millrace.audit.report.AuditEntry;
import io.millrace.audit.report.AuditReader;
import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.TopicPartition;
import io.millrace.common.serialization.StringDeserializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.PartitionReader;
import io.millrace.events.EventHeader;
import io.millrace.examples.events.PageViewEvent;
import io.millrace.schemaregistry.serde.AvroDeserializer;
import io.millrace.schemaregistry.serde.AvroSerdeConfig;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.avro.specific.SpecificRecord;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The generator against a broker and a registry: it creates its topics, every acknowledged event is in its topic
 * once, stamped by one of the simulated hosts at a time inside the spread, the pages viewed have a long tail, and
 * the audit's producer tier counted exactly what was acknowledged, per topic and host.
 */
public class EventGeneratorTest {

    private static final int PARTITIONS = 2;
    private static final Duration SPREAD = Duration.ofHours(3);
    private static final List<String> HOSTS = List.of("frontend-1", "frontend-2", "frontend-3");

    private static LocalCluster cluster;
    private static SchemaRegistryServer registry;

    @BeforeClass
    public static void start() throws Exception {
        // no topic is created here: the generator creates its own, with the broker's num.partitions
        cluster = LocalCluster.start(1, Map.of("num.partitions", PARTITIONS));
        registry = SchemaRegistryServer.startLocal(cluster.zookeeperConnect());
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

    private static GeneratorOptions.Builder options() {
        return GeneratorOptions.builder(cluster.bootstrapServers(), registry.urls().get(0));
    }

    @Test(timeout = 120_000)
    public void everyAcknowledgedEventIsThereOnceFromTheHostsWithinTheSpreadAndTheAuditCountedIt() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        GenerationSummary summary = EventGenerator.run(options().events(3_000).hosts(3).timeSpread(SPREAD).seed(42L)
            .producerProperty("linger.ms", "5").build(), new PrintStream(printed, true, StandardCharsets.UTF_8));

        assertEquals(0, summary.exitStatus());
        assertEquals(new GenerationSummary.Counts(3_000, 3_000, 0), summary.total());
        String output = printed.toString(StandardCharsets.UTF_8);
        for (EventTopic topic : EventTopic.values()) {
            assertTrue(output, output.contains("Created the topic " + topic.topic() + " with the broker's default"));
        }
        assertTrue(output, output.contains("OK: every event sent was acknowledged"));
        assertEquals(new HashSet<>(HOSTS), summary.byHost().keySet());

        Map<String, List<SpecificRecord>> read = readAll();
        Set<String> ids = new HashSet<>();
        Set<String> servers = new HashSet<>();
        long earliest = summary.startMs() - SPREAD.toMillis();
        long latest = summary.startMs() + summary.elapsedMs();
        for (EventTopic topic : EventTopic.values()) {
            List<SpecificRecord> events = read.get(topic.topic());
            assertEquals(topic.topic(), summary.byTopic().get(topic.topic()).acknowledged(), events.size());
            assertEquals(summary.byTopic().get(topic.topic()).acknowledged(),
                summary.acknowledgedByHour().get(topic.topic()).values().stream().mapToLong(Long::longValue).sum());
            for (SpecificRecord event : events) {
                EventHeader header = (EventHeader) event.get(event.getSchema().getField("header").pos());
                assertTrue("a duplicate " + header, ids.add(header.getId()));
                servers.add(header.getServer());
                assertTrue(header + " outside [" + earliest + ", " + latest + "]",
                    header.getTime() >= earliest && header.getTime() <= latest);
            }
        }
        assertEquals(new HashSet<>(HOSTS), servers);
        // three hours of event time reach into at least three hours of the clock
        assertTrue(summary.acknowledgedByHour().toString(), summary.acknowledgedByHour().get("page-views").size() >= 3);
        assertLongTail(read.get("page-views"));
        assertAuditCountedWhatWasAcknowledged(summary);
    }

    // the home page is the most viewed by far, a page in the middle of those seen is seen about once
    private static void assertLongTail(List<SpecificRecord> pageViews) {
        Map<String, Integer> views = new HashMap<>();
        pageViews.forEach(view -> views.merge(((PageViewEvent) view).getUrl(), 1, Integer::sum));
        List<Integer> counts = new ArrayList<>(views.values());
        counts.sort(null);
        int top = counts.get(counts.size() - 1);
        int median = counts.get(counts.size() / 2);
        assertEquals(Integer.valueOf(top), views.get("/"));
        assertTrue("top " + top + " vs median " + median, top >= 20 * median);
    }

    private static void assertAuditCountedWhatWasAcknowledged(GenerationSummary summary) {
        List<AuditEntry> entries = AuditReader.read(cluster.bootstrapServers(), registry.urls().get(0), "_audit",
            Pattern.compile(".*"), Long.MIN_VALUE, Long.MAX_VALUE);
        Map<String, Long> byTopic = new TreeMap<>();
        Map<String, Long> byHost = new TreeMap<>();
        Set<String> ids = new HashSet<>();
        for (AuditEntry entry : entries) {
            if (!ids.add(entry.id())) {
                continue;   // sent again after a lost acknowledgement: the report counts an id once
            }
            assertNotNull(entry.window());
            assertEquals("producer", entry.tier());
            assertEquals("dc1", entry.cluster());
            assertEquals("event-generator", entry.application());
            assertEquals(0, entry.window().failedCount());
            byTopic.merge(entry.topic(), entry.window().count(), Long::sum);
            byHost.merge(entry.host(), entry.window().count(), Long::sum);
        }
        Map<String, Long> acknowledged = new TreeMap<>();
        summary.byTopic().forEach((topic, counts) -> acknowledged.put(topic, counts.acknowledged()));
        assertEquals(acknowledged, byTopic);
        Map<String, Long> acknowledgedByHost = new TreeMap<>();
        summary.byHost().forEach((host, counts) -> acknowledgedByHost.put(host, counts.acknowledged()));
        assertEquals(acknowledgedByHost, byHost);
    }

    /** Every event of the generator's topics, decoded as the generated classes. */
    private static Map<String, List<SpecificRecord>> readAll() {
        Map<String, Object> config = Map.of("bootstrap.servers", cluster.bootstrapServers(),
            AvroSerdeConfig.SCHEMA_REGISTRY_URL_CONFIG, registry.urls().get(0),
            AvroSerdeConfig.SPECIFIC_AVRO_READER_CONFIG, true);
        AvroDeserializer<SpecificRecord> avro = new AvroDeserializer<>();
        avro.configure(config, false);
        Map<String, List<SpecificRecord>> read = new HashMap<>();
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(config))) {
            for (EventTopic topic : EventTopic.values()) {
                assertEquals(PARTITIONS, reader.partitionCount(topic.topic()));
                List<SpecificRecord> events = read.computeIfAbsent(topic.topic(), t -> new ArrayList<>());
                for (int p = 0; p < PARTITIONS; p++) {
                    TopicPartition tp = new TopicPartition(topic.topic(), p);
                    reader.read(tp, 0, reader.latestOffset(tp), new StringDeserializer(), avro)
                        .forEachRemaining(record -> events.add(record.value()));
                }
            }
        }
        return read;
    }
}
