package io.millrace.mirror;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.TopicPartition;
import io.millrace.common.serialization.StringSerializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.PartitionReader;
import io.millrace.producer.MillraceProducer;
import io.millrace.producer.ProducerRecord;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.serde.AvroDeserializer;
import io.millrace.schemaregistry.server.SchemaRegistryConfig;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import io.millrace.testkit.Conditions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Future;
import org.apache.avro.generic.GenericRecord;
import org.junit.Test;

/**
 * The mirror's tier of the audit: in the offline cluster's audit topic, per live cluster, topic and window,
 * what it read (tier live) and what the offline cluster acknowledged (tier offline) equal what was
 * produced; records retention deleted before they were mirrored are a lost range with their exact count.
 */
public class MirrorAuditTest {

    private static final long WINDOW = 60_000;

    @Test
    public void theMirrorPublishesWhatItReadAndWhatTheOfflineClusterAcknowledgedPerWindowAndItsLostRanges()
        throws Exception {
        try (LocalCluster live = LocalCluster.start(1, Map.of("broker.id", 11));
             LocalCluster offline = LocalCluster.start(1, Map.of("broker.id", 12));
             SchemaRegistryServer registry = new SchemaRegistryServer(new SchemaRegistryConfig(Map.of(
                 SchemaRegistryConfig.LISTENERS_CONFIG, "http://127.0.0.1:0",
                 SchemaRegistryConfig.ZOOKEEPER_CONNECT_CONFIG, offline.zookeeperConnect()))).start()) {
            live.createTopic("audited", 1, Map.of("segment.bytes", "20000"));
            long now = System.currentTimeMillis();
            long first = now - now % WINDOW - 2 * WINDOW;   // two whole windows back
            // 150 records in the first window, 50 in the second
            produce(live, "audited", 200, i -> first + (i < 150 ? i * 100L : WINDOW + (i - 150) * 100L));
            try (MirrorMaker mirror = mirror(live, offline, registry)) {
                mirror.start();
                Conditions.waitUntil(() -> mirror.counters().recordsOut() >= 200, 60_000, "the first records mirrored");
            }

            produce(live, "audited", 1_000, i -> first + 2 * WINDOW + i);
            io.millrace.broker.log.LogManager logs = live.broker(0).logManager();
            logs.setTopicConfig("audited", Map.of("segment.bytes", "20000", "retention.bytes", "1"));
            assertTrue("retention deleted segments", logs.cleanupLogs() > 0);
            long earliest;
            long latest;
            try (PartitionReader reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers",
                    live.bootstrapServers())))) {
                earliest = reader.earliestOffset(new TopicPartition("audited", 0));
                latest = reader.latestOffset(new TopicPartition("audited", 0));
            }
            assertTrue("the gap reaches past what was mirrored: " + earliest, earliest > 200);
            try (MirrorMaker mirror = mirror(live, offline, registry)) {
                mirror.start();
                Conditions.waitUntil(() -> mirror.counters().recordsOut() >= latest - earliest, 60_000, "the rest mirrored");
            }

            Map<String, Long> counts = new TreeMap<>();
            long lost = 0;
            for (GenericRecord record : readAudit(offline, registry)) {
                assertEquals("live-a", record.get("cluster").toString());
                assertEquals("audited", record.get("topic").toString());
                GenericRecord body = (GenericRecord) record.get("body");
                if (body.getSchema().getName().equals("LostRange")) {
                    assertEquals(MirrorAudit.LIVE_TIER, record.get("tier").toString());
                    assertEquals(200L, body.get("firstOffset"));
                    assertEquals(earliest - 1, (long) (Long) body.get("lastOffset"));
                    lost += (Long) body.get("count");
                } else {
                    long window = ((Long) body.get("windowStart") - first) / WINDOW;
                    counts.merge(record.get("tier") + "/" + window, (Long) body.get("count"), Long::sum);
                }
            }
            assertEquals("the lost range's count is what retention deleted", earliest - 200, lost);
            long third = latest - earliest;
            assertEquals(Map.of("live/0", 150L, "live/1", 50L, "live/2", third,
                "offline/0", 150L, "offline/1", 50L, "offline/2", third), counts);
        }
    }

    private static MirrorMaker mirror(LocalCluster live, LocalCluster offline, SchemaRegistryServer registry) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(MirrorMakerConfig.WHITELIST_CONFIG, "audited");
        settings.put(MirrorMakerConfig.OFFSET_COMMIT_INTERVAL_MS_CONFIG, 200L);
        settings.put(MirrorMakerConfig.AUDIT_ENABLED_CONFIG, true);
        settings.put("audit.window.ms", WINDOW);
        settings.put("audit.lateness.ms", 0L);
        settings.put("audit.publish.interval.ms", 200L);
        Map<String, Object> source = new HashMap<>();
        source.put("bootstrap.servers", live.bootstrapServers());
        source.put("zookeeper.connect", live.zookeeperConnect());
        source.put(ConsumerConfig.GROUP_ID_CONFIG, "g-audited");
        source.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "smallest");
        source.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
        return new MirrorMaker(new MirrorMakerConfig(settings), List.of(new SourceCluster("live-a", source)),
            Map.of("bootstrap.servers", offline.bootstrapServers(), "linger.ms", 5,
                SourceCluster.SCHEMA_REGISTRY_URL_CONFIG, registry.urls().get(0)));
    }

    private static void produce(LocalCluster cluster, String topic, int count, java.util.function.IntToLongFunction time)
        throws Exception {
        try (MillraceProducer<String, String> producer = new MillraceProducer<>(Map.of("bootstrap.servers",
                cluster.bootstrapServers(), "linger.ms", 5), new StringSerializer(), new StringSerializer())) {
            List<Future<?>> acks = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                acks.add(producer.send(new ProducerRecord<>(topic, 0, time.applyAsLong(i), "k" + i, "v".repeat(60) + i, List.of())));
            }
            for (Future<?> ack : acks) {
                ack.get();
            }
        }
    }

    private static List<GenericRecord> readAudit(LocalCluster offline, SchemaRegistryServer registry) {
        AvroDeserializer<GenericRecord> decoder = new AvroDeserializer<>(new SchemaRegistryClient(
            Map.of("schema.registry.url", registry.urls().get(0))));
        List<GenericRecord> records = new ArrayList<>();
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers",
                offline.bootstrapServers())))) {
            for (int p = 0; p < reader.partitionCount("_audit"); p++) {
                TopicPartition tp = new TopicPartition("_audit", p);
                reader.read(tp, 0, reader.latestOffset(tp)).forEachRemaining(r -> records.add(decoder.deserialize("_audit",
                    r.value())));
            }
        }
        return records;
    }
}
