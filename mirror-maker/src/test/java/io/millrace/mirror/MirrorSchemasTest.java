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
import io.millrace.schemaregistry.serde.AvroSerializer;
import io.millrace.schemaregistry.server.SchemaRegistryConfig;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import io.millrace.testkit.Conditions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.Test;

/**
 * Avro events from two live data centres, each with its own registry and its own schema for the same
 * topic, registered there at the same time: in the offline data centre every event decodes with the
 * offline registry alone, because the mirror copied each schema there with its id before the first
 * record that names it, and the live registries' id bases keep the ids apart.
 */
public class MirrorSchemasTest {

    private static final String TOPIC = "page-views";

    @Test
    public void eventsOfTwoLiveDataCentresDecodeOfflineWithTheOfflineRegistryAlone() throws Exception {
        try (LocalCluster dc1 = LocalCluster.start(1, Map.of("broker.id", 11));
             LocalCluster dc2 = LocalCluster.start(1, Map.of("broker.id", 12));
             LocalCluster offline = LocalCluster.start(1, Map.of("broker.id", 13));
             SchemaRegistryServer registry1 = registry(dc1, 0);
             SchemaRegistryServer registry2 = registry(dc2, 1_000_000);
             SchemaRegistryServer offlineRegistry = registry(offline, 0)) {
            client(offlineRegistry).setMode("IMPORT");
            dc1.createTopic(TOPIC, 2);
            dc2.createTopic(TOPIC, 2);
            Schema view1 = SchemaBuilder.record("PageView").namespace("dc1").fields()
                .requiredString("page").requiredLong("member").endRecord();
            Schema view2 = SchemaBuilder.record("PageView").namespace("dc2").fields()
                .requiredString("page").optionalString("referrer").endRecord();
            List<String> sent = new ArrayList<>();
            sent.addAll(produce(dc1, registry1, view1, "dc1", 100));
            sent.addAll(produce(dc2, registry2, view2, "dc2", 100));

            Map<String, Object> mirrorSettings = Map.of(MirrorMakerConfig.WHITELIST_CONFIG, TOPIC,
                MirrorMakerConfig.OFFSET_COMMIT_INTERVAL_MS_CONFIG, 200L);
            Map<String, Object> producer = Map.of("bootstrap.servers", offline.bootstrapServers(),
                SourceCluster.SCHEMA_REGISTRY_URL_CONFIG, offlineRegistry.urls().get(0));
            try (MirrorMaker mirror = new MirrorMaker(new MirrorMakerConfig(mirrorSettings),
                    List.of(source("dc1", dc1, registry1), source("dc2", dc2, registry2)), producer)) {
                mirror.start();
                Conditions.waitUntil(() -> mirror.counters().recordsOut() >= 200, 60_000, "every event mirrored");
                assertEquals("one schema per data centre", 2, mirror.counters().schemasCopied());
            }

            List<String> decoded = new ArrayList<>();
            AvroDeserializer<GenericRecord> offlineDecoder = new AvroDeserializer<>(client(offlineRegistry));
            try (PartitionReader reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers",
                    offline.bootstrapServers())))) {
                for (int p = 0; p < 2; p++) {
                    TopicPartition tp = new TopicPartition(TOPIC, p);
                    reader.read(tp, 0, reader.latestOffset(tp)).forEachRemaining(record -> {
                        GenericRecord event = offlineDecoder.deserialize(TOPIC, record.value());
                        decoded.add(event.getSchema().getNamespace() + "/" + event.get("page"));
                    });
                }
            }
            assertEquals(sent.size(), decoded.size());
            assertEquals(new java.util.TreeSet<>(sent), new java.util.TreeSet<>(decoded));
            SchemaRegistryClient offlineClient = client(offlineRegistry);
            int id2 = client(registry2).getId(TOPIC + "-value", view2);
            assertTrue("dc2's ids come from its base: " + id2, id2 > 1_000_000);
            assertEquals(view2, offlineClient.getById(id2));
            assertEquals(view1, offlineClient.getById(client(registry1).getId(TOPIC + "-value", view1)));
        }
    }

    private static List<String> produce(LocalCluster cluster, SchemaRegistryServer registry, Schema schema, String dc,
                                        int count) throws Exception {
        List<String> sent = new ArrayList<>();
        AvroSerializer<GenericRecord> values = new AvroSerializer<>(client(registry));
        try (MillraceProducer<String, GenericRecord> producer = new MillraceProducer<>(Map.of("bootstrap.servers",
                cluster.bootstrapServers(), "linger.ms", 5, "auto.register.schemas", true), new StringSerializer(), values)) {
            List<Future<?>> acks = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                GenericRecord view = new GenericData.Record(schema);
                view.put("page", "page-" + i);
                if (schema.getField("member") != null) {
                    view.put("member", (long) i);
                }
                acks.add(producer.send(new ProducerRecord<>(TOPIC, i % 2, "k" + i, view)));
                sent.add(dc + "/page-" + i);
            }
            for (Future<?> ack : acks) {
                ack.get();
            }
        }
        return sent;
    }

    private static SchemaRegistryServer registry(LocalCluster cluster, int idBase) throws InterruptedException {
        return new SchemaRegistryServer(new SchemaRegistryConfig(Map.of(
            SchemaRegistryConfig.LISTENERS_CONFIG, "http://127.0.0.1:0",
            SchemaRegistryConfig.ZOOKEEPER_CONNECT_CONFIG, cluster.zookeeperConnect(),
            SchemaRegistryConfig.SCHEMA_ID_BASE_CONFIG, idBase))).start();
    }

    private static SchemaRegistryClient client(SchemaRegistryServer registry) {
        return new SchemaRegistryClient(Map.of("schema.registry.url", registry.urls().get(0)));
    }

    private static SourceCluster source(String name, LocalCluster cluster, SchemaRegistryServer registry) {
        Map<String, Object> settings = new HashMap<>();
        settings.put("bootstrap.servers", cluster.bootstrapServers());
        settings.put("zookeeper.connect", cluster.zookeeperConnect());
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, "mirror");
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "smallest");
        settings.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
        settings.put(SourceCluster.SCHEMA_REGISTRY_URL_CONFIG, registry.urls().get(0));
        return new SourceCluster(name, settings);
    }
}
