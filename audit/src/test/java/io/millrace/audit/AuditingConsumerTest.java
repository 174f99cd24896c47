package io.millrace.audit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.TopicPartition;
import io.millrace.common.serialization.StringDeserializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.consumer.RebalanceListener;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.serde.AvroDeserializer;
import io.millrace.testkit.Conditions;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import org.apache.avro.generic.GenericRecord;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * The group consumer's tier: what a group consumed is published per window once its offsets are
 * committed and not before, events without a time and undecodable ones in their own fields; a consumer
 * that never commits publishes nothing, and the one that reads the records again counts them once.
 */
public class AuditingConsumerTest {

    static final long WINDOW = 3_600_000;

    @ClassRule
    public static final ClusterWithRegistry SERVERS = new ClusterWithRegistry();

    private static LocalCluster cluster() {
        return SERVERS.cluster();
    }

    @Test
    public void theGroupsCountsPerWindowArePublishedOnceItsOffsetsAreCommittedAndNotBefore() throws Exception {
        ConsumedEvents events = write("page-views");
        long before = System.currentTimeMillis() / WINDOW * WINDOW;
        Map<String, Object> settings = settings("billing", "_audit-billing");
        try (AuditingConsumer<String, GenericRecord> consumer = consumer(settings)) {
            Iterator<ConsumerRecord<String, GenericRecord>> stream = stream(consumer, "page-views");
            assertEquals("the malformed events are not handed out", ConsumedEvents.DECODABLE, read(stream));
            ((AuditedIterator<String, GenericRecord>) stream).markProcessed();
            assertEquals("every event consumed waits for the commit", ConsumedEvents.DECODABLE + ConsumedEvents.MALFORMED,
                consumer.heldRecords());

            AuditPublisher publisher = consumer.auditPublisher();
            publisher.publish(true);   // every window, due or not: there is none before the commit
            assertEquals(0, publisher.getPublishedRecords() + publisher.getPendingRecords());

            consumer.commit();
            assertEquals(0, consumer.heldRecords());
            Conditions.waitUntil(() -> publisher.getPublishedRecords() >= 1, "the old window, due, published after the commit");
        }   // closing publishes the window of now too

        AuditTrail trail = AuditTrail.read(cluster().bootstrapServers(), registryUrl(), "_audit-billing", "billing");
        assertEquals(ConsumedEvents.OLD, (long) trail.countByWindow.get(events.oldWindow));
        assertEquals(events.oldBytes, (long) trail.bytesByWindow.get(events.oldWindow));
        assertEquals(ConsumedEvents.OLD + ConsumedEvents.RECENT, trail.count);
        assertEquals(ConsumedEvents.NO_TIME, trail.noTime);
        assertEquals(ConsumedEvents.MALFORMED, trail.malformed);
        trail.countByWindow.forEach((window, count) -> assertTrue(window == events.oldWindow || window >= before));
        for (GenericRecord record : trail.records) {
            assertEquals("dc1", record.get("cluster").toString());
            assertEquals("the group names the application unless audit.application does", "billing",
                record.get("application").toString());
        }
    }

    @Test
    public void aConsumerThatReadsButNeverCommitsPublishesNothingAndTheNextReaderCountsTheEventsOnce() throws Exception {
        write("orders");
        Map<String, Object> settings = settings("shipping", "_audit-shipping");
        try (AuditingConsumer<String, GenericRecord> first = consumer(settings)) {
            first.setRebalanceListener(partitions -> false);   // withholds every commit, as a crash would
            Iterator<ConsumerRecord<String, GenericRecord>> stream = stream(first, "orders");
            assertEquals(ConsumedEvents.DECODABLE, read(stream));
            ((AuditedIterator<String, GenericRecord>) stream).markProcessed();
            first.close();
            assertEquals(0, first.auditPublisher().getPublishedRecords() + first.auditPublisher().getDroppedRecords());
        }

        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, true);
        settings.put(ConsumerConfig.AUTO_COMMIT_INTERVAL_MS_CONFIG, 200);
        try (AuditingConsumer<String, GenericRecord> second = consumer(settings)) {
            Iterator<ConsumerRecord<String, GenericRecord>> stream = stream(second, "orders");
            assertEquals("nothing was committed: every event again", ConsumedEvents.DECODABLE, read(stream));
            ((AuditedIterator<String, GenericRecord>) stream).markProcessed();
            Conditions.waitUntil(() -> second.heldRecords() == 0, "the auto-commit released the counts");
        }
        AuditTrail trail = AuditTrail.read(cluster().bootstrapServers(), registryUrl(), "_audit-shipping", "shipping");
        assertEquals("counted once", ConsumedEvents.OLD + ConsumedEvents.RECENT, trail.count);
        assertEquals(ConsumedEvents.NO_TIME, trail.noTime);
        assertEquals(ConsumedEvents.MALFORMED, trail.malformed);
    }

    @Test
    public void aRebalanceListenerThatAllowsTheCommitReleasesTheCountsOfThePartitionsGivenUp() throws Exception {
        write("clicks");
        Map<String, Object> settings = settings("ranking", "_audit-ranking");
        Set<TopicPartition> given = new java.util.concurrent.CopyOnWriteArraySet<>();
        try (AuditingConsumer<String, GenericRecord> consumer = consumer(settings)) {
            consumer.setRebalanceListener(new RebalanceListener() {
                @Override
                public boolean beforeCommit(Set<TopicPartition> partitions) {
                    return true;
                }

                @Override
                public void afterRelease(Set<TopicPartition> partitions) {
                    given.addAll(partitions);
                }
            });
            Iterator<ConsumerRecord<String, GenericRecord>> stream = stream(consumer, "clicks");
            assertEquals(ConsumedEvents.DECODABLE, read(stream));
            ((AuditedIterator<String, GenericRecord>) stream).markProcessed();
        }   // no commit of its own: the close's, through the listener
        assertEquals("the application's listener is still told", 2, given.size());
        AuditTrail trail = AuditTrail.read(cluster().bootstrapServers(), registryUrl(), "_audit-ranking", "ranking");
        assertEquals(ConsumedEvents.OLD + ConsumedEvents.RECENT, trail.count);
        assertEquals(ConsumedEvents.NO_TIME + ConsumedEvents.MALFORMED, trail.noTime + trail.malformed);
    }

    @Test
    public void withAuditOffItReadsAsTheGroupConsumerAndPublishesNothing() throws Exception {
        write("searches");
        Map<String, Object> settings = settings("indexer", "_audit-indexer");
        settings.put(AuditConfig.AUDIT_ENABLED_CONFIG, "false");
        settings.remove(AuditConfig.AUDIT_CLUSTER_CONFIG);   // not needed when off
        try (AuditingConsumer<String, GenericRecord> consumer = consumer(settings)) {
            assertNull(consumer.auditPublisher());
            Iterator<ConsumerRecord<String, GenericRecord>> stream = stream(consumer, "searches");
            assertEquals(ConsumedEvents.DECODABLE, read(stream));
            ((AuditedIterator<String, GenericRecord>) stream).markProcessed();
            consumer.commit();
            assertEquals(0, consumer.heldRecords());
        }
    }

    private static ConsumedEvents write(String topic) throws Exception {
        cluster().createTopic(topic, 2);
        return ConsumedEvents.write(cluster().bootstrapServers(), registryUrl(), topic, WINDOW);
    }

    static Map<String, Object> settings(String group, String auditTopic) {
        Map<String, Object> settings = new HashMap<>();
        settings.put("zookeeper.connect", cluster().zookeeperConnect());
        settings.put("bootstrap.servers", cluster().bootstrapServers());
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "smallest");
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        settings.put(ConsumerConfig.CONSUMER_TIMEOUT_MS_CONFIG, 30_000);
        settings.put("schema.registry.url", registryUrl());
        settings.put(AuditConfig.AUDIT_ENABLED_CONFIG, true);
        settings.put(AuditConfig.AUDIT_CLUSTER_CONFIG, "dc1");
        settings.put(AuditConfig.AUDIT_TOPIC_CONFIG, auditTopic);
        settings.put(AuditConfig.AUDIT_WINDOW_MS_CONFIG, WINDOW);
        settings.put(AuditConfig.AUDIT_LATENESS_MS_CONFIG, 0L);
        settings.put(AuditConfig.AUDIT_PUBLISH_INTERVAL_MS_CONFIG, 100L);
        return settings;
    }

    private static AuditingConsumer<String, GenericRecord> consumer(Map<String, Object> settings) {
        return new AuditingConsumer<>(new ConsumerConfig(settings), new StringDeserializer(),
            new AvroDeserializer<>(new SchemaRegistryClient(Map.of("schema.registry.url", registryUrl()))));
    }

    private static Iterator<ConsumerRecord<String, GenericRecord>> stream(AuditingConsumer<String, GenericRecord> consumer,
                                                                          String topic) {
        return consumer.createMessageStreams(Map.of(topic, 1)).get(topic).get(0).iterator();
    }

    /** Reads every decodable event, checking each is one of those written. */
    private static int read(Iterator<ConsumerRecord<String, GenericRecord>> stream) {
        int read = 0;
        while (read < ConsumedEvents.DECODABLE) {
            ConsumerRecord<String, GenericRecord> record = stream.next();
            assertTrue(record.value().get("url").toString().startsWith("/"));
            read++;
        }
        return read;
    }

    static String registryUrl() {
        return SERVERS.registryUrl();
    }
}
