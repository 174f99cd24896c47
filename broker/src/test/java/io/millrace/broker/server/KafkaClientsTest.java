package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicCollection;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicIdException;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A single Millrace broker against Apache Kafka's own Java producer, consumer and admin client. */
public class KafkaClientsTest {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaClientsTest.class);
    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 1, Map.of());

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    @Test
    public void everyCompressionTypeAndAcksSettingProducesRecordsThatAConsumerReadsBackEqual() throws Exception {
        String topic = "all-codecs";
        int partitions = 4;
        CLUSTER.createTopic(topic, partitions, Map.of());
        Map<Integer, List<Records>> sent = new TreeMap<>();
        int perRun = 500;
        long start = System.nanoTime();
        int total = 0;
        for (String compression : List.of("none", "gzip", "snappy", "lz4", "zstd")) {
            for (String acks : List.of("0", "1", "all")) {
                produce(topic, compression, acks, perRun, total, sent);
                total += perRun;
            }
        }
        double produceSeconds = (System.nanoTime() - start) / 1e9;
        Map<Integer, List<Records>> read = Records.readAll(CLUSTER.clientProps(), topic, partitions, total);
        LOG.info("Produced {} records in 15 producer runs in {} s; read back in {} s total", total,
            String.format("%.2f", produceSeconds), String.format("%.2f", (System.nanoTime() - start) / 1e9));
        assertSameRecords(sent, read);
    }

    @Test
    public void anIdempotentProducerSplitsABatchOverMaxMessageBytesAndEveryRecordArrivesOnceInOrder() throws Exception {
        String topic = "small-messages";
        CLUSTER.createTopic(topic, 2, Map.of("max.message.bytes", "2048"));
        Properties props = CLUSTER.clientProps();
        props.put("key.serializer", ByteArraySerializer.class.getName());
        props.put("value.serializer", ByteArraySerializer.class.getName());
        props.put("batch.size", "8192");
        props.put("linger.ms", "5");
        Map<Integer, List<Records>> sent = new TreeMap<>();
        double splits;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            List<java.util.concurrent.Future<org.apache.kafka.clients.producer.RecordMetadata>> acked = new ArrayList<>();
            for (int n = 0; n < 4_000; n++) {
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, n % 2, 1_700_000_000_000L + n,
                    utf8("key-" + n), utf8("value " + n));
                sent.computeIfAbsent(n % 2, k -> new ArrayList<>()).add(Records.of(record));
                acked.add(producer.send(record));
            }
            // Sent without waiting: each partition's first batch is split while the next are in flight
            // (KafkaIdempotentProducerProxyTest shows why a new producer's later batches cannot overtake it).
            producer.flush();
            for (var f : acked) {
                f.get(30, TimeUnit.SECONDS);
            }
            splits = producer.metrics().entrySet().stream().filter(e -> e.getKey().name().equals("batch-split-total"))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).sum();
        }
        // MESSAGE_TOO_LARGE made the producer split its batches and send the parts with their sequences again
        assertTrue("batches split: " + splits, splits > 0);
        assertSameRecords(sent, Records.readAll(CLUSTER.clientProps(), topic, 2, 4_000));
    }

    private static long appended(String topic) {
        long total = 0;
        for (int p = 0; p < 4; p++) {
            total += CLUSTER.broker(0).logManager().getLog(topic, p).orElseThrow().logEndOffset();
        }
        return total;
    }

    static void assertSameRecords(Map<Integer, List<Records>> sent, Map<Integer, List<Records>> read) {
        Map<Integer, Integer> sentCounts = new TreeMap<>();
        Map<Integer, Integer> readCounts = new TreeMap<>();
        sent.forEach((p, r) -> sentCounts.put(p, r.size()));
        read.forEach((p, r) -> readCounts.put(p, r.size()));
        assertEquals("records per partition", sentCounts, readCounts);
        for (Integer p : sent.keySet()) {
            for (int i = 0; i < sent.get(p).size(); i++) {
                assertEquals("partition " + p + ", record " + i, sent.get(p).get(i), read.get(p).get(i));
            }
        }
    }

    private static void produce(String topic, String compression, String acks, int count, int base,
                                Map<Integer, List<Records>> sent) throws Exception {
        Properties props = CLUSTER.clientProps();
        props.put("key.serializer", ByteArraySerializer.class.getName());
        props.put("value.serializer", ByteArraySerializer.class.getName());
        props.put("compression.type", compression);
        props.put("acks", acks);
        props.put("linger.ms", "5");
        if (!acks.equals("all")) {
            props.put("enable.idempotence", "false");
            props.put("max.in.flight.requests.per.connection", "1");
        }
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            List<java.util.concurrent.Future<org.apache.kafka.clients.producer.RecordMetadata>> acked = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int n = base + i;
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, n % 4, 1_700_000_000_000L + n,
                    utf8("key-" + n), utf8(compression + "/" + acks + " value " + n + " " + "x".repeat(n % 50)),
                    List.of(new RecordHeader("codec", utf8(compression)), new RecordHeader("n", utf8(Integer.toString(n)))));
                sent.computeIfAbsent(n % 4, k -> new ArrayList<>()).add(Records.of(record));
                acked.add(producer.send(record));
            }
            producer.flush();
            for (var f : acked) {
                f.get(30, TimeUnit.SECONDS);
            }
        }
        if (acks.equals("0")) {
            // The producer has closed without waiting for answers; every request it sent is still appended.
            Conditions.waitUntil(() -> appended(topic) == base + count, "acks=0 records appended after the producer closed");
        }
    }

    @Test
    public void theAdminClientCreatesDescribesListsOffsetsOfAndDeletesTopics() throws Exception {
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            admin.createTopics(List.of(new NewTopic("admin-topic", 3, (short) 1)
                .configs(Map.of("retention.ms", "3600000")))).all().get(30, TimeUnit.SECONDS);
            TopicDescription description = admin.describeTopics(List.of("admin-topic")).allTopicNames()
                .get(30, TimeUnit.SECONDS).get("admin-topic");
            assertEquals(3, description.partitions().size());
            assertEquals(0, description.partitions().get(0).leader().id());

            CLUSTER.awaitLogs("admin-topic", 3);
            produceTimestamped("admin-topic", 1, 10);
            TopicPartition tp = new TopicPartition("admin-topic", 1);
            assertEquals(0, offset(admin, tp, OffsetSpec.earliest()));
            assertEquals(10, offset(admin, tp, OffsetSpec.latest()));
            assertEquals(4, offset(admin, tp, OffsetSpec.forTimestamp(1_000L + 4)));
            assertEquals(-1, offset(admin, tp, OffsetSpec.forTimestamp(1_000_000L)));
            assertEquals("the last record has the largest timestamp", 9, offset(admin, tp, OffsetSpec.maxTimestamp()));

            TopicPartition other = new TopicPartition("admin-topic", 2);
            for (long timestamp : new long[] {5_000, 7_000, 2_000, 7_000, 6_000}) {
                sendAt(other, timestamp);
            }
            ListOffsetsResult.ListOffsetsResultInfo max = admin.listOffsets(Map.of(other, OffsetSpec.maxTimestamp()))
                .partitionResult(other).get(30, TimeUnit.SECONDS);
            assertEquals("the first of two records with the largest timestamp", 1, max.offset());
            assertEquals(7_000, max.timestamp());

            admin.deleteTopics(List.of("admin-topic")).all().get(30, TimeUnit.SECONDS);
            assertTrue(!admin.listTopics().names().get(30, TimeUnit.SECONDS).contains("admin-topic"));
        }
    }

    @Test
    public void topicIdsAreStableWhileATopicLivesNewWhenItIsCreatedAgainAndNameTheTopicInRequests() throws Exception {
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            Uuid created = admin.createTopics(List.of(new NewTopic("by-id", 2, (short) 1))).topicId("by-id")
                .get(30, TimeUnit.SECONDS);
            Uuid first = topicId(admin, "by-id");
            assertTrue("a real id, not the zero UUID", !Uuid.ZERO_UUID.equals(first));
            assertEquals("CreateTopics answers the id Metadata gives", first, created);
            assertEquals("the same id on every request", first, topicId(admin, "by-id"));
            TopicDescription byId = admin.describeTopics(TopicCollection.ofTopicIds(List.of(first))).allTopicIds()
                .get(30, TimeUnit.SECONDS).get(first);
            assertEquals("by-id", byId.name());
            assertEquals(2, byId.partitions().size());

            admin.deleteTopics(TopicCollection.ofTopicIds(List.of(first))).all().get(30, TimeUnit.SECONDS);
            Conditions.waitUntil(() -> !CLUSTER.broker(0).cluster().metadata().snapshot().hasTopic("by-id"),
                "the topic deleted by id to be gone");
            expect(UnknownTopicIdException.class, () -> admin.describeTopics(TopicCollection.ofTopicIds(List.of(first)))
                .allTopicIds().get(30, TimeUnit.SECONDS));

            admin.createTopics(List.of(new NewTopic("by-id", 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
            Uuid second = topicId(admin, "by-id");
            assertTrue("the topic created again is another topic: " + first + " vs " + second, !first.equals(second));
        }
    }

    private static Uuid topicId(Admin admin, String topic) throws Exception {
        return admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).topicId();
    }

    @Test
    public void theAdminClientGetsKafkasErrorsForBadTopicCreations() throws Exception {
        CLUSTER.createTopic("exists", 1, Map.of());
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            expect(TopicExistsException.class, () -> admin.createTopics(List.of(new NewTopic("exists", 1, (short) 1))).all().get());
            expect(InvalidConfigurationException.class, () -> admin.createTopics(List.of(new NewTopic("bad-config", 1, (short) 1)
                .configs(Map.of("retention.ms", "soon")))).all().get());
            expect(InvalidConfigurationException.class, () -> admin.createTopics(List.of(new NewTopic("unknown-config", 1, (short) 1)
                .configs(Map.of("no.such.setting", "1")))).all().get());
            expect(InvalidReplicationFactorException.class, () -> admin.createTopics(List.of(new NewTopic("replicated", 1, (short) 3)))
                .all().get());
            admin.createTopics(List.of(new NewTopic("validated", 2, (short) 1)),
                new org.apache.kafka.clients.admin.CreateTopicsOptions().validateOnly(true)).all().get();
            Set<String> names = admin.listTopics().names().get();
            assertTrue(names.contains("exists"));
            assertTrue(!names.contains("validated") && !names.contains("bad-config") && !names.contains("replicated"));
        }
    }

    @Test
    public void theAdminClientDescribesATopicsSettingsWithWhereEachValueComesFrom() throws Exception {
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            admin.createTopics(List.of(new NewTopic("configured", 1, (short) 1)
                .configs(Map.of("retention.ms", "3600000", "max.message.bytes", "2000")))).all().get(30, TimeUnit.SECONDS);
            org.apache.kafka.common.config.ConfigResource topic =
                new org.apache.kafka.common.config.ConfigResource(org.apache.kafka.common.config.ConfigResource.Type.TOPIC, "configured");
            org.apache.kafka.clients.admin.Config config = admin.describeConfigs(List.of(topic),
                new org.apache.kafka.clients.admin.DescribeConfigsOptions().includeSynonyms(true).includeDocumentation(true))
                .all().get(30, TimeUnit.SECONDS).get(topic);

            org.apache.kafka.clients.admin.ConfigEntry retention = config.get("retention.ms");
            assertEquals("3600000", retention.value());
            assertEquals(org.apache.kafka.clients.admin.ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG, retention.source());
            assertEquals(org.apache.kafka.clients.admin.ConfigEntry.ConfigType.LONG, retention.type());
            assertEquals(List.of("retention.ms", "log.retention.ms"),
                retention.synonyms().stream().map(org.apache.kafka.clients.admin.ConfigEntry.ConfigSynonym::name).toList());
            assertEquals(String.valueOf(7 * 24 * 3_600_000L), retention.synonyms().get(1).value());
            assertEquals("2000", config.get("max.message.bytes").value());
            org.apache.kafka.clients.admin.ConfigEntry segment = config.get("segment.bytes");
            assertEquals(String.valueOf(1024 * 1024 * 1024), segment.value());
            assertEquals(org.apache.kafka.clients.admin.ConfigEntry.ConfigSource.DEFAULT_CONFIG, segment.source());
            assertTrue(segment.documentation(), segment.documentation() != null && !segment.documentation().isEmpty());
            assertEquals("CreateTime", config.get("message.timestamp.type").value());

            org.apache.kafka.common.config.ConfigResource missing =
                new org.apache.kafka.common.config.ConfigResource(org.apache.kafka.common.config.ConfigResource.Type.TOPIC, "no-such-topic");
            expect(org.apache.kafka.common.errors.UnknownTopicOrPartitionException.class,
                () -> admin.describeConfigs(List.of(missing)).all().get(30, TimeUnit.SECONDS));
        }
    }

    private static long offset(Admin admin, TopicPartition tp, OffsetSpec spec) throws Exception {
        ListOffsetsResult.ListOffsetsResultInfo info = admin.listOffsets(Map.of(tp, spec)).partitionResult(tp)
            .get(30, TimeUnit.SECONDS);
        return info.offset();
    }

    private static void produceTimestamped(String topic, int partition, int count) throws Exception {
        Properties props = CLUSTER.clientProps();
        props.put("key.serializer", ByteArraySerializer.class.getName());
        props.put("value.serializer", ByteArraySerializer.class.getName());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, partition, 1_000L + i, null, utf8("v" + i))).get(30, TimeUnit.SECONDS);
            }
        }
    }

    private static void sendAt(TopicPartition tp, long timestamp) throws Exception {
        Properties props = CLUSTER.clientProps();
        props.put("key.serializer", ByteArraySerializer.class.getName());
        props.put("value.serializer", ByteArraySerializer.class.getName());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            producer.send(new ProducerRecord<>(tp.topic(), tp.partition(), timestamp, null, utf8("at " + timestamp)))
                .get(30, TimeUnit.SECONDS);
        }
    }

    private static void expect(Class<? extends Throwable> type, ThrowingRunnable call) throws Exception {
        try {
            call.run();
            fail("expected " + type.getSimpleName());
        } catch (ExecutionException e) {
            assertEquals(e.getCause().toString(), type, e.getCause().getClass());
        }
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
