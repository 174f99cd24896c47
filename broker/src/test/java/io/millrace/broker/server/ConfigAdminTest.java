package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.log.Log;
import io.millrace.broker.log.LogConfig;
import io.millrace.common.config.ConfigDef;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.AlterConfigsOptions;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * Kafka's AdminClient against two Millrace brokers: DescribeCluster, DescribeConfigs for topics
 * and brokers, and IncrementalAlterConfigs on topics, whose changes reach the logs of every broker
 * hosting the topic while they run. (The older AlterConfigs, which Kafka 4's AdminClient no longer
 * sends, and inputs no client sends are in {@link ConfigAdminWireTest}.)
 */
public class ConfigAdminTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    /** Retention every 100 ms, deleted files gone at once: a retention change shows within a second. */
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 2, Map.of(
        LogConfig.LOG_RETENTION_CHECK_INTERVAL_MS_CONFIG, 100L, LogConfig.LOG_SEGMENT_DELETE_DELAY_MS_CONFIG, 0L));

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    @Test
    public void describeClusterListsTheLiveBrokersTheControllerAndTheClusterId() throws Exception {
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            DescribeClusterResult cluster = admin.describeCluster();
            List<Node> nodes = cluster.nodes().get(30, TimeUnit.SECONDS).stream()
                .sorted(java.util.Comparator.comparingInt(Node::id)).toList();
            assertEquals(List.of(0, 1), nodes.stream().map(Node::id).toList());
            for (Node node : nodes) {
                assertEquals("127.0.0.1", node.host());
                assertEquals(CLUSTER.broker(node.id()).boundPort(), node.port());
            }
            int controller = CLUSTER.broker(0).cluster().metadata().snapshot().controllerId();
            assertEquals(controller, cluster.controller().get(30, TimeUnit.SECONDS).id());
            assertEquals(MetadataHandler.CLUSTER_ID, cluster.clusterId().get(30, TimeUnit.SECONDS));
        }
    }

    @Test
    public void eachBrokerDescribesEverySettingItReadsWithWhereTheValueComesFrom() throws Exception {
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            for (int id = 0; id < 2; id++) {
                Config config = describe(admin, new ConfigResource(ConfigResource.Type.BROKER, String.valueOf(id)));
                int declared = BrokerConfig.ALL.stream().mapToInt(def -> def.keys().size()).sum();
                assertEquals(declared, config.entries().size());
                ConfigEntry dirs = config.get(LogConfig.LOG_DIRS_CONFIG);
                assertEquals(CLUSTER.config(id).get(LogConfig.LOG_DIRS_CONFIG), dirs.value());
                assertEquals(ConfigEntry.ConfigSource.STATIC_BROKER_CONFIG, dirs.source());
                assertEquals(String.valueOf(id), config.get("broker.id").value());
                ConfigEntry partitions = config.get(BrokerConfig.NUM_PARTITIONS_CONFIG);
                assertEquals("1", partitions.value());
                assertEquals(ConfigEntry.ConfigSource.DEFAULT_CONFIG, partitions.source());
                assertEquals(ConfigEntry.ConfigType.INT, partitions.type());
                assertEquals("100", config.get(LogConfig.LOG_RETENTION_CHECK_INTERVAL_MS_CONFIG).value());
                assertNull("unset, no default", config.get(LogConfig.LOG_RETENTION_MS_CONFIG).value());
                assertTrue(config.entries().stream().allMatch(e -> e.isReadOnly() && !e.isSensitive()));
            }
            Config defaults = describe(admin, new ConfigResource(ConfigResource.Type.BROKER, ""));
            assertTrue("no dynamic cluster-wide defaults", defaults.entries().isEmpty());
        }
    }

    @Test
    public void incrementalAlterConfigsChangesATopicsSettingsOnEveryBrokerHostingIt() throws Exception {
        String topic = "altered";
        CLUSTER.createTopic(topic, 2, Map.of("retention.ms", "86400000"));
        assertTrue("one partition on each broker", hostedOn(0, topic) && hostedOn(1, topic));
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            alter(admin, resource, set("retention.ms", "1234567"), set("max.message.bytes", "5000"),
                set("flush.messages", "7"), set("segment.ms", "600000"));
            awaitLogs(topic, c -> c.retentionMs() == 1_234_567L && c.maxMessageBytes() == 5000 && c.flushMessages() == 7
                && c.segmentMs() == 600_000L);
            Config config = describe(admin, resource);
            assertEquals("1234567", config.get("retention.ms").value());
            assertEquals(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG, config.get("max.message.bytes").source());

            alter(admin, resource, delete("max.message.bytes"), delete("flush.messages"), delete("segment.bytes"));
            awaitLogs(topic, c -> c.maxMessageBytes() == LogConfig.DEFAULT_MAX_MESSAGE_BYTES
                && c.flushMessages() == Long.MAX_VALUE && c.retentionMs() == 1_234_567L);
            config = describe(admin, resource);
            assertEquals(ConfigEntry.ConfigSource.DEFAULT_CONFIG, config.get("max.message.bytes").source());
            assertEquals(Map.of("retention.ms", "1234567", "segment.ms", "600000"),
                CLUSTER.broker(1).cluster().metadata().snapshot().topicConfig(topic));

            // Millrace's topic settings are scalars: appending to or subtracting from one is refused, as Kafka does.
            expect(InvalidConfigurationException.class, "append is not allowed",
                () -> alter(admin, resource, op("retention.ms", "1", AlterConfigOp.OpType.APPEND)));
            expect(InvalidConfigurationException.class, "subtract is not allowed",
                () -> alter(admin, resource, op("retention.ms", "1", AlterConfigOp.OpType.SUBTRACT)));
            assertEquals("1234567", describe(admin, resource).get("retention.ms").value());
        }
    }

    @Test
    public void loweringRetentionDeletesOldSegmentsWhileTheBrokerRuns() throws Exception {
        String topic = "shrinking";
        CLUSTER.createTopic(topic, 1, Map.of("segment.bytes", "1024"));
        int leader = CLUSTER.broker(0).cluster().metadata().snapshot().leader(topic, 0);
        Log log = CLUSTER.broker(leader).logManager().getLog(topic, 0).orElseThrow();
        produce(topic, 60, 100);
        int segments = log.numberOfSegments();
        assertTrue("segments rolled at 1024 bytes: " + segments, segments >= 5);
        List<Long> bases = log.segmentBaseOffsets();
        long active = bases.get(bases.size() - 1);
        Thread.sleep(500);   // several retention passes at the default retention: nothing goes
        assertEquals(0, log.logStartOffset());

        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            alter(admin, new ConfigResource(ConfigResource.Type.TOPIC, topic), set("retention.ms", "200"));
            Conditions.waitUntil(() -> log.numberOfSegments() == 1, "every closed segment deleted");
            assertEquals("the active segment stays", active, log.logStartOffset());
            TopicPartition tp = new TopicPartition(topic, 0);
            assertEquals(active, admin.listOffsets(Map.of(tp, OffsetSpec.earliest())).partitionResult(tp)
                .get(30, TimeUnit.SECONDS).offset());
        }
    }

    @Test
    public void segmentSizeAndFlushPolicyChangesApplyFromTheNextAppend() throws Exception {
        String topic = "rolling";
        CLUSTER.createTopic(topic, 1, Map.of());
        int leader = CLUSTER.broker(0).cluster().metadata().snapshot().leader(topic, 0);
        Log log = CLUSTER.broker(leader).logManager().getLog(topic, 0).orElseThrow();
        produce(topic, 10, 200);
        assertEquals(1, log.numberOfSegments());
        assertEquals("nothing fsynced at the default flush policy", 0, log.recoveryPoint());

        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            alter(admin, new ConfigResource(ConfigResource.Type.TOPIC, topic), set("segment.bytes", "1024"),
                set("flush.messages", "1"));
            awaitLogs(topic, c -> c.segmentBytes() == 1024 && c.flushMessages() == 1);
        }
        produce(topic, 10, 200);
        assertTrue("the full active segment rolled, then every 1024 bytes: " + log.numberOfSegments(),
            log.numberOfSegments() >= 3);
        assertEquals("with flush.messages=1 an acknowledged record is fsynced", log.logEndOffset(), log.recoveryPoint());
    }

    @Test
    public void aBatchLargerThanASegmentIsKafkasRecordBatchTooLargeWhichItsProducerDoesNotSplit() throws Exception {
        String topic = "tiny-segments";
        CLUSTER.createTopic(topic, 1, Map.of());
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            alter(admin, resource, set("segment.bytes", "1024"));
            awaitLogs(topic, c -> c.segmentBytes() == 1024);
            expect(RecordBatchTooLargeException.class, "segment of 1024 bytes", () -> produce(topic, 1, 1500));
            // over both limits, the batch's own limit answers first, as in Kafka
            alter(admin, resource, set("max.message.bytes", "1000"));
            awaitLogs(topic, c -> c.maxMessageBytes() == 1000);
            expect(RecordTooLargeException.class, "max.message.bytes", () -> produce(topic, 1, 1500));
            produce(topic, 1, 500);
        }
        // the partition's one replica is on either broker; only the 500-byte record was appended
        long appended = 0;
        for (int id = 0; id < 2; id++) {
            appended += CLUSTER.broker(id).logManager().getLog(topic, 0).map(Log::logEndOffset).orElse(0L);
        }
        assertEquals(1, appended);
    }

    @Test
    public void aLoweredMaxMessageBytesRefusesABiggerBatchUntilItIsDeletedAgain() throws Exception {
        String topic = "small-messages";
        CLUSTER.createTopic(topic, 1, Map.of());
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        produce(topic, 1, 3000);
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            alter(admin, resource, set("max.message.bytes", "1000"));
            awaitLogs(topic, c -> c.maxMessageBytes() == 1000);
            expect(RecordTooLargeException.class, "", () -> produce(topic, 1, 3000));
            produce(topic, 1, 500);

            alter(admin, resource, delete("max.message.bytes"));
            awaitLogs(topic, c -> c.maxMessageBytes() == LogConfig.DEFAULT_MAX_MESSAGE_BYTES);
            produce(topic, 1, 3000);
        }
    }

    @Test
    public void validateOnlyChecksAChangeWithoutMakingIt() throws Exception {
        String topic = "validated";
        CLUSTER.createTopic(topic, 1, Map.of("retention.ms", "60000"));
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        AlterConfigsOptions validateOnly = new AlterConfigsOptions().validateOnly(true);
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            admin.incrementalAlterConfigs(Map.of(resource, List.of(set("retention.ms", "1"), delete("segment.ms"))),
                validateOnly).all().get(30, TimeUnit.SECONDS);
            expect(InvalidConfigurationException.class, "retention.ms", () -> admin.incrementalAlterConfigs(
                Map.of(resource, List.of(set("retention.ms", "soon"))), validateOnly).all().get(30, TimeUnit.SECONDS));
            Thread.sleep(200);
            assertEquals("60000", describe(admin, resource).get("retention.ms").value());
            assertEquals(Map.of("retention.ms", "60000"), CLUSTER.broker(0).cluster().metadata().snapshot().topicConfig(topic));
        }
    }

    @Test
    public void badChangesGetKafkasErrorsAndChangeNothing() throws Exception {
        String topic = "guarded";
        CLUSTER.createTopic(topic, 1, Map.of("retention.ms", "60000"));
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            expect(UnknownTopicOrPartitionException.class, "does not exist",
                () -> alter(admin, new ConfigResource(ConfigResource.Type.TOPIC, "no-such-topic"), set("retention.ms", "1")));
            expect(InvalidConfigurationException.class, "Unknown topic configuration no.such.setting",
                () -> alter(admin, resource, set("retention.ms", "1"), set("no.such.setting", "1")));
            expect(InvalidConfigurationException.class, "not a number",
                () -> alter(admin, resource, set("segment.bytes", "big")));
            expect(InvalidConfigurationException.class, "segment.bytes",
                () -> alter(admin, resource, set("segment.bytes", "10")));   // below a batch header
            expect(InvalidConfigurationException.class, "message.timestamp.type",
                () -> alter(admin, resource, set("message.timestamp.type", "WallClock")));
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "1");
            expect(InvalidRequestException.class, "Cannot update these configs dynamically: [log.retention.hours]",
                () -> alter(admin, broker, set("log.retention.hours", "1")));
            expect(InvalidConfigurationException.class, "Unknown broker configuration",
                () -> alter(admin, broker, set("no.such.broker.setting", "1")));
            expect(InvalidRequestException.class, "resource type 8",
                () -> alter(admin, new ConfigResource(ConfigResource.Type.BROKER_LOGGER, "0"), set("kafka", "DEBUG")));
            assertEquals(Map.of("retention.ms", "60000"), CLUSTER.broker(0).cluster().metadata().snapshot().topicConfig(topic));
        }
    }

    @Test
    public void kafkasCleanupPoliciesAreTakenAndAnyOtherIsRefusedWithTheReason() throws Exception {
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            admin.createTopics(List.of(new NewTopic("deleting", 1, (short) 1).configs(Map.of("cleanup.policy", "delete")),
                new NewTopic("compacted", 1, (short) 1).configs(Map.of("cleanup.policy", "compact"))))
                .all().get(30, TimeUnit.SECONDS);
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, "deleting");
            assertEquals("delete", describe(admin, resource).get("cleanup.policy").value());
            assertEquals("compact", describe(admin, new ConfigResource(ConfigResource.Type.TOPIC, "compacted"))
                .get("cleanup.policy").value());
            alter(admin, resource, set("cleanup.policy", "compact,delete"));
            awaitLogs("deleting", config -> config.cleanupPolicy().compact() && config.cleanupPolicy().delete());
            assertEquals("compact,delete", describe(admin, resource).get("cleanup.policy").value());
            ExecutionException refused = assertThrows(ExecutionException.class, () -> admin.createTopics(List.of(
                new NewTopic("shredded", 1, (short) 1).configs(Map.of("cleanup.policy", "shred")))).all()
                .get(30, TimeUnit.SECONDS));
            assertEquals(InvalidConfigurationException.class, refused.getCause().getClass());
            assertTrue(refused.getCause().getMessage(), refused.getCause().getMessage().contains("'shred' is neither"));
            expect(InvalidConfigurationException.class, "is neither", () -> alter(admin, resource, set("cleanup.policy", "")));
        }
    }

    /** What kafka-reassign-partitions --verify sends once a move is done: deletes of throttles Millrace never sets. */
    @Test
    public void deletingKafkasReplicationThrottlesSucceedsAndSettingOneIsRefused() throws Exception {
        String topic = "unthrottled";
        CLUSTER.createTopic(topic, 1, Map.of("retention.ms", "60000"));
        ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "0");
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            alter(admin, broker, delete("leader.replication.throttled.rate"), delete("follower.replication.throttled.rate"),
                delete("replica.alter.log.dirs.io.max.bytes.per.second"));
            alter(admin, resource, delete("leader.replication.throttled.replicas"),
                delete("follower.replication.throttled.replicas"));
            expect(InvalidConfigurationException.class, "Unknown broker configuration leader.replication.throttled.rate",
                () -> alter(admin, broker, set("leader.replication.throttled.rate", "1000")));
            expect(InvalidConfigurationException.class, "Unknown topic configuration leader.replication.throttled.replicas",
                () -> alter(admin, resource, set("leader.replication.throttled.replicas", "*")));
            assertEquals(Map.of("retention.ms", "60000"), CLUSTER.broker(0).cluster().metadata().snapshot().topicConfig(topic));
        }
    }

    @Test
    public void concurrentChangesFromTwoBrokersAreAllKept() throws Exception {
        String topic = "contended";
        CLUSTER.createTopic(topic, 1, Map.of());
        List<String> keys = LogConfig.TOPIC_CONFIG.keys().stream().map(k -> k.name).filter(k -> !k.startsWith("message."))
            .toList();
        List<java.util.concurrent.CompletableFuture<Map<String, String>>> changes = new java.util.ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            ConfigDef.Type type = LogConfig.TOPIC_CONFIG.key(key).type;
            String value = type == ConfigDef.Type.BOOLEAN ? "false" : String.valueOf(type == ConfigDef.Type.INT ? 100_000 : 60_000L);
            changes.add(CLUSTER.broker(i % 2).cluster().alterTopicConfig(topic, current -> {
                Map<String, String> next = new java.util.HashMap<>(current);
                next.put(key, value);
                return next;
            }));
        }
        for (var change : changes) {
            change.get(30, TimeUnit.SECONDS);
        }
        Conditions.waitUntil(() -> CLUSTER.broker(0).cluster().metadata().snapshot().topicConfig(topic).keySet()
            .containsAll(keys), "every change in the topic's config");
        assertEquals(keys.size(), CLUSTER.broker(0).cluster().metadata().snapshot().topicConfig(topic).size());
    }

    @Test
    public void aTopicCreatedAgainUnderTheSameNameStartsFromTheBrokersDefaults() throws Exception {
        String topic = "reborn";
        CLUSTER.createTopic(topic, 2, Map.of("retention.ms", "1000"));
        awaitLogs(topic, c -> c.retentionMs() == 1000);
        CLUSTER.broker(0).cluster().deleteTopic(topic).get(30, TimeUnit.SECONDS);
        Conditions.waitUntil(() -> !hostedOn(0, topic) && !hostedOn(1, topic), "the old logs deleted");
        CLUSTER.createTopic(topic, 2, Map.of());
        awaitLogs(topic, c -> c.retentionMs() == LogConfig.defaults().retentionMs());
    }

    // ---- helpers ------------------------------------------------------------------------------

    private static AlterConfigOp set(String key, String value) {
        return op(key, value, AlterConfigOp.OpType.SET);
    }

    private static AlterConfigOp delete(String key) {
        return op(key, null, AlterConfigOp.OpType.DELETE);
    }

    private static AlterConfigOp op(String key, String value, AlterConfigOp.OpType type) {
        return new AlterConfigOp(new ConfigEntry(key, value), type);
    }

    private static void alter(Admin admin, ConfigResource resource, AlterConfigOp... ops) throws Exception {
        Map<ConfigResource, Collection<AlterConfigOp>> changes = Map.of(resource, List.of(ops));
        admin.incrementalAlterConfigs(changes).all().get(30, TimeUnit.SECONDS);
    }

    private static Config describe(Admin admin, ConfigResource resource) throws Exception {
        return admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource);
    }

    private static boolean hostedOn(int broker, String topic) {
        return CLUSTER.broker(broker).logManager().allLogs().stream().anyMatch(l -> l.topicPartition().topic().equals(topic));
    }

    /** Waits until every local log of {@code topic}, on both brokers, has settings meeting {@code condition}. */
    private static void awaitLogs(String topic, Predicate<LogConfig> condition) {
        Conditions.waitUntil(() -> {
            for (int id = 0; id < 2; id++) {
                for (Log log : CLUSTER.broker(id).logManager().allLogs()) {
                    if (log.topicPartition().topic().equals(topic) && !condition.test(log.config())) {
                        return false;
                    }
                }
            }
            return true;
        }, "the new settings in every log of " + topic);
    }

    /** Produces {@code count} records of {@code size} bytes, one batch each, waiting for every acknowledgement. */
    private static void produce(String topic, int count, int size) throws Exception {
        Properties props = CLUSTER.clientProps();
        props.put("key.serializer", ByteArraySerializer.class.getName());
        props.put("value.serializer", ByteArraySerializer.class.getName());
        props.put("linger.ms", "0");
        props.put("retries", "0");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, 0, null, new byte[size])).get(30, TimeUnit.SECONDS);
            }
        }
    }

    private interface Call {
        void run() throws Exception;
    }

    private static void expect(Class<? extends Exception> type, String messagePart, Call call) throws Exception {
        try {
            call.run();
        } catch (ExecutionException e) {
            assertEquals(e.toString(), type, e.getCause().getClass());
            assertTrue(e.getCause().getMessage(), e.getCause().getMessage().contains(messagePart));
            return;
        }
        throw new AssertionError("expected " + type.getSimpleName());
    }
}
