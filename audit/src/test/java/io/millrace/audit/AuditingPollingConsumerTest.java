package io.millrace.audit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.serialization.StringDeserializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.serde.AvroDeserializer;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.generic.GenericRecord;
import org.junit.Test;

/**
 * The poll-style face of the group consumer's tier: polled batches committed are counted, the last
 * batch, neither processed nor committed when the consumer closes, is not.
 */
public class AuditingPollingConsumerTest {

    private static final long WINDOW = 3_600_000;

    @Test
    public void committedPollsAreCountedAndTheLastPollClosedUncommittedIsNot() throws Exception {
        try (ClusterWithRegistry servers = new ClusterWithRegistry().start()) {
            LocalCluster cluster = servers.cluster();
            String url = servers.registryUrl();
            cluster.createTopic("sessions", 2);
            ConsumedEvents events = ConsumedEvents.write(cluster.bootstrapServers(), url, "sessions", WINDOW);
            try (AuditingPollingConsumer<String, GenericRecord> consumer = new AuditingPollingConsumer<>(
                    new ConsumerConfig(settings(cluster, url)), new StringDeserializer(),
                    new AvroDeserializer<>(new SchemaRegistryClient(Map.of("schema.registry.url", url))), 5)) {
                consumer.subscribe(Set.of("sessions"));
                int received = 0;
                while (received < ConsumedEvents.DECODABLE) {
                    received += consumer.poll(Duration.ofMillis(200)).size();
                    consumer.commit();
                }
                assertEquals(ConsumedEvents.DECODABLE, received);
                assertEquals("the malformed events are left out", List.of(), consumer.poll(Duration.ofMillis(500)));
                consumer.commit();

                ConsumedEvents.write(cluster.bootstrapServers(), url, "sessions", WINDOW);   // the same again
                List<ConsumerRecord<String, GenericRecord>> last = List.of();
                while (last.isEmpty()) {
                    last = consumer.poll(Duration.ofMillis(200));
                }
                assertFalse(last.isEmpty());
            }   // closes with the last poll neither processed nor committed

            AuditTrail trail = AuditTrail.read(cluster.bootstrapServers(), url, "_audit", "sessions-reader");
            assertEquals(ConsumedEvents.OLD, (long) trail.countByWindow.get(events.oldWindow));
            assertEquals(ConsumedEvents.OLD + ConsumedEvents.RECENT, trail.count);
            assertEquals(ConsumedEvents.NO_TIME, trail.noTime);
            assertEquals(events.countedBytes(), trail.bytes);
            assertEquals(ConsumedEvents.MALFORMED, trail.malformed);
        }
    }

    private static Map<String, Object> settings(LocalCluster cluster, String registryUrl) {
        Map<String, Object> settings = new HashMap<>();
        settings.put("zookeeper.connect", cluster.zookeeperConnect());
        settings.put("bootstrap.servers", cluster.bootstrapServers());
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, "sessions-reader");
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "smallest");
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        settings.put("schema.registry.url", registryUrl);
        settings.put(AuditConfig.AUDIT_ENABLED_CONFIG, "true");
        settings.put(AuditConfig.AUDIT_CLUSTER_CONFIG, "dc1");
        settings.put(AuditConfig.AUDIT_WINDOW_MS_CONFIG, WINDOW);
        return settings;
    }
}
