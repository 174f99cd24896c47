package io.millrace.audit.kafka;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.millrace.audit.AuditConfig;
import io.millrace.audit.AuditTrail;
import io.millrace.audit.ConsumedEvents;
import io.millrace.schemaregistry.server.SchemaRegistryConfig;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Apache Kafka's own consumer, audited by adding the interceptor, against an Apache Kafka broker (only
 * its group coordinator takes Kafka's commits): the group's counts are published once, and only as
 * far as, its commits cover them.
 */
public class AuditConsumerInterceptorTest {

    private static final long WINDOW = 3_600_000;

    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();

    private static KafkaNode kafka;
    private static EmbeddedZooKeeper zooKeeper;
    private static SchemaRegistryServer registry;

    @BeforeClass
    public static void start() throws Exception {
        kafka = KafkaNode.start(TMP.newFolder("kafka").toPath());
        zooKeeper = new EmbeddedZooKeeper().start();
        registry = new SchemaRegistryServer(new SchemaRegistryConfig(Map.of(
            SchemaRegistryConfig.LISTENERS_CONFIG, "http://127.0.0.1:0",
            SchemaRegistryConfig.ZOOKEEPER_CONNECT_CONFIG, zooKeeper.connectString()))).start();
    }

    @AfterClass
    public static void stop() throws Exception {
        if (registry != null) {
            registry.close();
        }
        if (zooKeeper != null) {
            zooKeeper.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    public void kafkasConsumerWithTheInterceptorPublishesWhatItCommittedPerWindowAndNothingBefore() throws Exception {
        ConsumedEvents events = write("payments");
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props("fraud-check", "_audit"))) {
            consumer.subscribe(List.of("payments"));
            assertEquals(ConsumedEvents.DECODABLE + ConsumedEvents.MALFORMED, pollAll(consumer));
            Thread.sleep(1_000);   // ten publishing rounds: the old window is due, but not committed
            assertFalse("nothing published before the commit", topics().contains("_audit"));
            consumer.commitSync();
        }   // closing the consumer closes the interceptor, which publishes every window

        AuditTrail trail = AuditTrail.read(kafka.bootstrapServers(), registryUrl(), "_audit", "fraud-check");
        // values read as bytes: Kafka's consumer decodes before any interceptor, so none is malformed here
        assertEquals(ConsumedEvents.OLD + ConsumedEvents.MALFORMED, (long) trail.countByWindow.get(events.oldWindow));
        assertEquals(ConsumedEvents.OLD + ConsumedEvents.MALFORMED + ConsumedEvents.RECENT, trail.count);
        assertEquals(ConsumedEvents.NO_TIME, trail.noTime);
        assertEquals(events.countedBytes() + events.malformedBytes, trail.bytes);
        trail.records.forEach(r -> assertEquals("dc1", r.get("cluster").toString()));
        trail.records.forEach(r -> assertEquals("fraud-check", r.get("application").toString()));
    }

    @Test
    public void onlyRecordsBelowTheCommittedOffsetAreCountedAndAGroupThatNeverCommitsPublishesNothing() throws Exception {
        ConsumedEvents events = write("refunds");
        try (KafkaConsumer<String, byte[]> idle = new KafkaConsumer<>(props("refund-idle", "_audit-refunds"));
             KafkaConsumer<String, byte[]> partial = new KafkaConsumer<>(props("refund-check", "_audit-refunds"))) {
            idle.subscribe(List.of("refunds"));
            partial.subscribe(List.of("refunds"));
            assertEquals(ConsumedEvents.DECODABLE + ConsumedEvents.MALFORMED, pollAll(idle));
            assertEquals(ConsumedEvents.DECODABLE + ConsumedEvents.MALFORMED, pollAll(partial));
            partial.commitSync(Map.of(new TopicPartition("refunds", 0), new OffsetAndMetadata(5)));
        }   // neither commits on close: auto-commit is off

        assertEquals("offsets 0-4 of partition 0, all old", Map.of(events.oldWindow, 5L),
            AuditTrail.read(kafka.bootstrapServers(), registryUrl(), "_audit-refunds", "refund-check").countByWindow);
        AuditTrail idle = AuditTrail.read(kafka.bootstrapServers(), registryUrl(), "_audit-refunds", "refund-idle");
        assertTrue("read, never committed: nothing", idle.records.isEmpty());
    }

    private static ConsumedEvents write(String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get(60, TimeUnit.SECONDS);
        }
        return ConsumedEvents.write(kafka.bootstrapServers(), registryUrl(), topic, WINDOW);
    }

    private static Set<String> topics() throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            return admin.listTopics().names().get(30, TimeUnit.SECONDS);
        }
    }

    private static Properties props(String group, String auditTopic) {
        Properties props = new Properties();
        props.put("bootstrap.servers", kafka.bootstrapServers());
        props.put("group.id", group);
        props.put("key.deserializer", StringDeserializer.class.getName());
        props.put("value.deserializer", ByteArrayDeserializer.class.getName());
        props.put("auto.offset.reset", "earliest");
        props.put("enable.auto.commit", "false");
        props.put("interceptor.classes", AuditConsumerInterceptor.class.getName());
        props.put("schema.registry.url", registryUrl());
        props.put(AuditConfig.AUDIT_CLUSTER_CONFIG, "dc1");
        props.put(AuditConfig.AUDIT_TOPIC_CONFIG, auditTopic);
        props.put(AuditConfig.AUDIT_WINDOW_MS_CONFIG, String.valueOf(WINDOW));
        props.put(AuditConfig.AUDIT_LATENESS_MS_CONFIG, "0");
        props.put(AuditConfig.AUDIT_PUBLISH_INTERVAL_MS_CONFIG, "100");
        return props;
    }

    private static int pollAll(KafkaConsumer<String, byte[]> consumer) {
        int total = 0;
        long deadline = System.currentTimeMillis() + 60_000;
        while (total < ConsumedEvents.DECODABLE + ConsumedEvents.MALFORMED && System.currentTimeMillis() < deadline) {
            total += consumer.poll(Duration.ofMillis(200)).count();
        }
        return total;
    }

    private static String registryUrl() {
        return registry.urls().get(0);
    }
}
