package io.millrace.audit;

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
import io.millrace.testkit.Conditions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.avro.generic.GenericRecord;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * A tier's counts reach the audit topic as Avro records that decode with the registry alone: windows when
 * due, late events as deltas, lost ranges; while the broker is down the records wait, bounded, and go
 * out when it is back; the producer tier counts only what the broker acknowledged.
 */
public class AuditPublisherTest {

    @ClassRule
    public static final ClusterWithRegistry SERVERS = new ClusterWithRegistry();

    private static LocalCluster cluster() {
        return SERVERS.cluster();
    }

    @Test
    public void theProducerTiersCountsArriveAsDecodableDeltasThatSumToWhatTheBrokerAcknowledged() throws Exception {
        String auditTopic = "_audit-counts";
        cluster().createTopic("page-views", 1);
        long now = System.currentTimeMillis();
        long window = 60_000;
        long thisWindow = now - now % window;
        try (AuditPublisher publisher = new AuditPublisher(settings(auditTopic, "frontend", 60_000))) {
            try (AuditingProducer<String, String> producer = new AuditingProducer<>(new MillraceProducer<>(
                    Map.of("bootstrap.servers", cluster().bootstrapServers()), new StringSerializer(), new StringSerializer()),
                    publisher.counter())) {
                for (int i = 0; i < 20; i++) {
                    producer.send(new ProducerRecord<>("page-views", null, now, "k" + i, "view-" + i, List.of())).get();
                }
                for (int i = 0; i < 5; i++) {   // late: two windows back, already due
                    producer.send(new ProducerRecord<>("page-views", null, thisWindow - 2 * window + i, "k", "old", List.of()))
                        .get();
                }
            }
            publisher.publish(false);
            Conditions.waitUntil(() -> publisher.getPublishedRecords() >= 1, "the due window published");
            publisher.lostRange(new LostRangeReport("page-views", 0, 100, 149));
        }
        List<GenericRecord> records = read(auditTopic);
        assertEquals("the late window when due, this one and the lost range at close", 3, records.size());
        assertEquals(records.size(), new HashSet<>(records.stream().map(r -> r.get("id").toString()).toList()).size());
        long counted = 0;
        long bytes = 0;
        for (GenericRecord record : records) {
            assertEquals("producer", record.get("tier").toString());
            assertEquals("dc1", record.get("cluster").toString());
            assertEquals("frontend", record.get("application").toString());
            assertEquals("page-views", record.get("topic").toString());
            GenericRecord body = (GenericRecord) record.get("body");
            if (body.getSchema().getName().equals("LostRange")) {
                assertEquals(50L, body.get("count"));
                assertEquals(100L, body.get("firstOffset"));
            } else {
                counted += (Long) body.get("count");
                bytes += (Long) body.get("bytes");
                long start = (Long) body.get("windowStart");
                assertTrue(start == thisWindow || start == thisWindow - 2 * window);
                assertEquals(start + window, (long) (Long) body.get("windowEnd"));
            }
        }
        assertEquals(25, counted);
        long expectedBytes = 0;
        for (int i = 0; i < 20; i++) {
            expectedBytes += ("k" + i).length() + ("view-" + i).length();
        }
        assertEquals(expectedBytes + 5 * ("k".length() + "old".length()), bytes);
    }

    @Test
    public void whileTheAuditTopicCannotBeReachedRecordsWaitBoundedAndGoOutWhenItIsBack() throws Exception {
        String auditTopic = "_audit-outage";
        Map<String, Object> settings = settings(auditTopic, "outage", 60_000);
        settings.put(AuditConfig.AUDIT_MAX_PENDING_RECORDS_CONFIG, 3);
        settings.put("max.block.ms", 500);
        settings.put("delivery.timeout.ms", 2_000);
        settings.put("request.timeout.ms", 1_000);
        long old = System.currentTimeMillis() - 3_600_000;   // windows long due
        try (AuditPublisher publisher = new AuditPublisher(settings)) {
            cluster().createTopic(auditTopic, 1);
            cluster().stopBroker(0);
            try {
                for (int w = 0; w < 5; w++) {
                    publisher.counter().count("t", old + w * 60_000, 1);
                }
                publisher.publish(false);
                assertEquals("the two oldest dropped, counted", 2, publisher.getDroppedRecords());
                assertEquals(3, publisher.getPendingRecords());
                assertEquals(0, publisher.getPublishedRecords());
            } finally {
                cluster().startBroker(0);
            }
            Conditions.waitUntil(() -> {
                publisher.publish(false);
                return publisher.getPublishedRecords() == 3;
            }, 60_000, "the waiting records published once the broker is back");
            assertEquals(0, publisher.getPendingRecords());
        }
        List<GenericRecord> records = read(auditTopic);
        assertEquals("each waiting record once: the ids tell retries apart", 3,
            new HashSet<>(records.stream().map(r -> r.get("id").toString()).toList()).size());
    }

    @Test
    public void inARegistryInImportModeRecordsWaitForTheAuditSchemaAndGoOutOnceItIsCopiedIn() throws Exception {
        String auditTopic = "_audit-offline";
        SchemaRegistryClient registry = new SchemaRegistryClient(Map.of("schema.registry.url", SERVERS.registryUrl()));
        int liveId = registry.register("_audit-live-value", AuditRecords.SCHEMA);   // as a live data centre has it
        long old = System.currentTimeMillis() - 3_600_000;   // windows long due
        try (AuditPublisher publisher = new AuditPublisher(settings(auditTopic, "offline-mode", 60_000))) {
            cluster().createTopic(auditTopic, 1);
            registry.setMode("IMPORT");
            try {
                publisher.counter().count("t", old, 3);
                publisher.counter().count("t", old + 60_000, 4);
                publisher.publish(false);
                publisher.publish(false);
                assertEquals("nothing published before the schema is there", 0, publisher.getPublishedRecords());
                assertEquals("nothing dropped either", 2, publisher.getPendingRecords());
                registry.importSchema(auditTopic + "-value", liveId, AuditRecords.SCHEMA);   // what the mirror does
                Conditions.waitUntil(() -> {
                    publisher.publish(false);
                    return publisher.getPublishedRecords() == 2;
                }, 60_000, "the waiting records published once the schema was copied in");
            } finally {
                registry.setMode("READWRITE");
            }
        }
        List<GenericRecord> records = read(auditTopic);
        assertEquals(2, records.size());
        assertEquals("an event a window", 2L, records.stream().mapToLong(r -> (Long) body(r).get("count")).sum());
        assertEquals(7L, records.stream().mapToLong(r -> (Long) body(r).get("bytes")).sum());
    }

    @Test
    public void aSendThatFailsIsCountedAsFailedNotAsDelivered() throws Exception {
        cluster().createTopic("tiny", 1, Map.of("max.message.bytes", "200"));
        AuditCounter counter = new AuditCounter(60_000, 0, io.millrace.common.utils.Time.SYSTEM);
        try (AuditingProducer<String, String> producer = new AuditingProducer<>(new MillraceProducer<>(
                Map.of("bootstrap.servers", cluster().bootstrapServers()), new StringSerializer(), new StringSerializer()),
                counter)) {
            producer.send(new ProducerRecord<>("tiny", "ok")).get();
            try {
                producer.send(new ProducerRecord<>("tiny", "x".repeat(1_000))).get();
            } catch (ExecutionException expected) {
                // refused by the broker: too large for the topic
            }
        }
        List<WindowDelta> deltas = counter.drainDue(true);
        assertEquals(1, deltas.stream().mapToLong(WindowDelta::count).sum());
        assertEquals(1, deltas.stream().mapToLong(WindowDelta::failedCount).sum());
    }

    @Test
    public void aProducerOtherThanMillracesIsCountedRecordByRecordAsMillracesIsCountedByBatch() throws Exception {
        cluster().createTopic("two-ways", 1);
        long now = System.currentTimeMillis();
        AuditCounter byBatch = new AuditCounter(60_000, 0, io.millrace.common.utils.Time.SYSTEM);
        AuditCounter byRecord = new AuditCounter(60_000, 0, io.millrace.common.utils.Time.SYSTEM);
        try (MillraceProducer<String, String> plain = new MillraceProducer<>(Map.of("bootstrap.servers",
                cluster().bootstrapServers()), new StringSerializer(), new StringSerializer());
             AuditingProducer<String, String> batches = new AuditingProducer<>(plain, byBatch);
             AuditingProducer<String, String> records = new AuditingProducer<>(new Delegating<>(plain), byRecord)) {
            for (int i = 0; i < 50; i++) {
                records.send(new ProducerRecord<>("two-ways", null, now - i * 1_000L, "k" + i, "v".repeat(i), List.of())).get();
            }
        }
        List<WindowDelta> counted = byBatch.drainDue(true);
        assertEquals(50, counted.stream().mapToLong(WindowDelta::count).sum());
        assertEquals(counted.stream().mapToLong(WindowDelta::bytes).sum(),
            byRecord.drainDue(true).stream().mapToLong(WindowDelta::bytes).sum());
    }

    /** A producer that is not a MillraceProducer: it hands every call to one. */
    private record Delegating<K, V>(io.millrace.producer.Producer<K, V> producer) implements io.millrace.producer.Producer<K, V> {
        @Override
        public java.util.concurrent.Future<io.millrace.producer.RecordMetadata> send(ProducerRecord<K, V> record) {
            return producer.send(record);
        }

        @Override
        public java.util.concurrent.Future<io.millrace.producer.RecordMetadata> send(ProducerRecord<K, V> record,
                                                                                   io.millrace.producer.Callback callback) {
            return producer.send(record, callback);
        }

        @Override
        public void flush() throws InterruptedException {
            producer.flush();
        }

        @Override
        public List<io.millrace.common.client.PartitionInfo> partitionsFor(String topic) throws InterruptedException {
            return producer.partitionsFor(topic);
        }

        @Override
        public void close(java.time.Duration timeout) {
            producer.close(timeout);
        }

        @Override
        public void close() {
            producer.close();
        }
    }

    @Test
    public void countsATierHandsInAfterItsCommitGoOutAtOnceNotWithTheNextRound() throws Exception {
        String auditTopic = "_audit-handed-in";
        Map<String, Object> settings = settings(auditTopic, "mirror", 60_000);
        settings.put(AuditConfig.AUDIT_PUBLISH_INTERVAL_MS_CONFIG, 600_000L);
        try (AuditPublisher publisher = new AuditPublisher(settings).start()) {
            publisher.publish(publisher.source("live", "dc1"),
                List.of(new WindowDelta("page-views", 0, 60_000, 40, 400, 0, 0, 0, 5, 9, 11)));
            publisher.lostRange(publisher.source("live", "dc1"), new LostRangeReport("page-views", 0, 10, 19));
            Conditions.waitUntil(() -> publisher.getPublishedRecords() == 2, 30_000,
                "the handed-in records published long before the ten-minute round");
        }
        assertEquals(2, read(auditTopic).size());
    }

    @Test
    public void countsHandedInAgainUnderTheSameIdsAreTheSameRecordsAgain() throws Exception {
        String auditTopic = "_audit-given-ids";
        Map<String, WindowDelta> deltas = new LinkedHashMap<>();
        deltas.put("state/7/page-views/0", new WindowDelta("page-views", 0, 60_000, 40, 400, 1, 2, 0, 5, 9, 11));
        deltas.put("state/7/page-views/60000", new WindowDelta("page-views", 60_000, 120_000, 3, 30, 0, 0, 0, 1, 2, 2));
        Map<String, LostRangeReport> lost = Map.of("state/7/page-views/lost/1/500",
            new LostRangeReport("page-views", 1, 500, 549));
        for (int completion = 0; completion < 2; completion++) {   // completed, then replayed after a crash
            try (AuditPublisher publisher = new AuditPublisher(settings(auditTopic, "loader", 60_000))) {
                publisher.publishWithIds(publisher.source("hadoop", "offline"), deltas);
                publisher.lostRangesWithIds(publisher.source("hadoop", "offline"), lost);
                publisher.close();
                assertEquals(3, publisher.getPublishedRecords());
                assertEquals(0, publisher.getDroppedRecords());
            }
        }
        List<GenericRecord> records = read(auditTopic);
        assertEquals("sent twice", 6, records.size());
        Map<String, Long> countById = new HashMap<>();
        for (GenericRecord record : records) {
            assertEquals("hadoop", record.get("tier").toString());
            assertEquals("offline", record.get("cluster").toString());
            countById.merge(record.get("id").toString(), (Long) ((GenericRecord) record.get("body")).get("count"),
                (a, b) -> a.equals(b) ? a : -1L);
        }
        assertEquals("each id twice with the same counts", Map.of("state/7/page-views/0", 40L, "state/7/page-views/60000", 3L,
            "state/7/page-views/lost/1/500", 50L), countById);
    }

    @Test
    public void publishersOfOneApplicationOnSeveralHostsInOneJvmEachExportTheirMetrics() throws Exception {
        Map<String, Object> first = settings("_audit-jmx", "simulated-frontend", 60_000);
        first.put(AuditConfig.AUDIT_HOST_CONFIG, "frontend-1");
        Map<String, Object> second = settings("_audit-jmx", "simulated-frontend", 60_000);
        second.put(AuditConfig.AUDIT_HOST_CONFIG, "frontend-2");
        javax.management.ObjectName pattern = new javax.management.ObjectName(
            "io.millrace:type=audit-metrics,application=\"simulated-frontend\",*");
        javax.management.MBeanServer server = java.lang.management.ManagementFactory.getPlatformMBeanServer();
        try (AuditPublisher one = new AuditPublisher(first).start();
             AuditPublisher two = new AuditPublisher(second).start()) {
            Set<javax.management.ObjectName> names = server.queryNames(pattern, null);
            assertEquals(String.valueOf(names), 2, names.size());
            assertTrue(String.valueOf(names), names.stream().anyMatch(n -> "\"frontend-2\"".equals(n.getKeyProperty("host"))
                && "\"dc1\"".equals(n.getKeyProperty("cluster"))));
            assertEquals(0L, server.getAttribute(names.iterator().next(), "DroppedRecords"));
        }
        assertEquals("unregistered on close", 0, server.queryNames(pattern, null).size());
    }

    private static Map<String, Object> settings(String topic, String application, long windowMs) {
        Map<String, Object> settings = new HashMap<>();
        settings.put("bootstrap.servers", cluster().bootstrapServers());
        settings.put("schema.registry.url", SERVERS.registryUrl());
        settings.put(AuditConfig.AUDIT_TOPIC_CONFIG, topic);
        settings.put(AuditConfig.AUDIT_TIER_CONFIG, "producer");
        settings.put(AuditConfig.AUDIT_CLUSTER_CONFIG, "dc1");
        settings.put(AuditConfig.AUDIT_APPLICATION_CONFIG, application);
        settings.put(AuditConfig.AUDIT_WINDOW_MS_CONFIG, windowMs);
        settings.put(AuditConfig.AUDIT_LATENESS_MS_CONFIG, 0L);
        settings.put(AuditConfig.AUDIT_PUBLISH_INTERVAL_MS_CONFIG, 3_600_000L);   // rounds run by the test
        return settings;
    }

    private static GenericRecord body(GenericRecord auditRecord) {
        return (GenericRecord) auditRecord.get("body");
    }

    private static List<GenericRecord> read(String topic) {
        AvroDeserializer<GenericRecord> decoder = new AvroDeserializer<>(new SchemaRegistryClient(
            Map.of("schema.registry.url", SERVERS.registryUrl())));
        List<GenericRecord> records = new ArrayList<>();
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers",
                cluster().bootstrapServers())))) {
            for (int p = 0; p < reader.partitionCount(topic); p++) {
                TopicPartition tp = new TopicPartition(topic, p);
                reader.read(tp, 0, reader.latestOffset(tp)).forEachRemaining(r -> records.add(decoder.deserialize(topic,
                    r.value())));
            }
        }
        return records;
    }
}
