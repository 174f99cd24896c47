package io.millrace.mirror;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.TopicPartition;
import io.millrace.common.config.ConfigException;
import io.millrace.common.serialization.StringDeserializer;
import io.millrace.common.serialization.StringSerializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.consumer.GroupOffsets;
import io.millrace.consumer.PartitionReader;
import io.millrace.producer.MillraceProducer;
import io.millrace.producer.ProducerRecord;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.serde.AvroDeserializer;
import io.millrace.schemaregistry.server.SchemaRegistryConfig;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import io.millrace.testkit.Conditions;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Future;
import org.apache.avro.generic.GenericRecord;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The mirror with a {@link MirrorMessageHandler} between the live and the offline cluster: what a handler
 * drops never reaches the offline cluster and is missing from the audit's offline tier while the live
 * tier counts it, yet the commit passes it; a record it returns twice or under another topic arrives so;
 * an output the offline cluster refuses, or a handler that throws, stops the mirror with no commit past
 * the live record it came from.
 */
public class MirrorHandlerTest {

    private static final long WINDOW = 60_000;

    private static LocalCluster live;
    private static LocalCluster offline;
    private static SchemaRegistryServer registry;

    @BeforeClass
    public static void startClusters() throws Exception {
        live = LocalCluster.start(1, Map.of("broker.id", 21));
        offline = LocalCluster.start(1, Map.of("broker.id", 22));
        registry = new SchemaRegistryServer(new SchemaRegistryConfig(Map.of(
            SchemaRegistryConfig.LISTENERS_CONFIG, "http://127.0.0.1:0",
            SchemaRegistryConfig.ZOOKEEPER_CONNECT_CONFIG, offline.zookeeperConnect()))).start();
    }

    @AfterClass
    public static void stopClusters() throws Exception {
        if (registry != null) {
            registry.close();
        }
        for (LocalCluster cluster : new LocalCluster[] {live, offline}) {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    /** Drops the records whose key is one of its comma-separated args. */
    public static final class DropKeys implements MirrorMessageHandler {
        private Set<String> dropped = Set.of();

        @Override
        public void configure(String args) {
            dropped = Set.of(args.split(","));
        }

        @Override
        public List<ProducerRecord<byte[], byte[]>> handle(ConsumerRecord<byte[], byte[]> record,
                                                           ProducerRecord<byte[], byte[]> copy) {
            return dropped.contains(text(record.key())) ? List.of() : List.of(copy);
        }
    }

    /** Keys ending in "-twice" are sent twice; those ending in "-moved" go to the copy's topic + "-moved". */
    public static final class TwiceOrMoved implements MirrorMessageHandler {
        @Override
        public List<ProducerRecord<byte[], byte[]>> handle(ConsumerRecord<byte[], byte[]> record,
                                                           ProducerRecord<byte[], byte[]> copy) {
            String key = text(record.key());
            if (key.endsWith("-twice")) {
                return List.of(copy, copy);
            }
            if (key.endsWith("-moved")) {
                return List.of(new ProducerRecord<>(copy.topic() + "-moved", copy.partition(), copy.timestamp(),
                    copy.key(), copy.value(), copy.headers()));
            }
            return List.of(copy);
        }
    }

    /** Key "c10" gets a second record of 10,000 bytes, which the offline topic (max.message.bytes 2000) refuses. */
    public static final class RefusedSecondOutput implements MirrorMessageHandler {
        @Override
        public List<ProducerRecord<byte[], byte[]>> handle(ConsumerRecord<byte[], byte[]> record,
                                                           ProducerRecord<byte[], byte[]> copy) {
            if (!text(record.key()).equals("c10")) {
                return List.of(copy);
            }
            byte[] big = "x".repeat(10_000).getBytes(StandardCharsets.UTF_8);
            return List.of(copy, new ProducerRecord<>(copy.topic(), copy.partition(), copy.timestamp(), copy.key(), big,
                copy.headers()));
        }
    }

    /** Throws on key "t5". */
    public static final class ThrowsOnT5 implements MirrorMessageHandler {
        @Override
        public List<ProducerRecord<byte[], byte[]>> handle(ConsumerRecord<byte[], byte[]> record,
                                                           ProducerRecord<byte[], byte[]> copy) {
            if (text(record.key()).equals("t5")) {
                throw new IllegalStateException("cannot handle t5");
            }
            return List.of(copy);
        }
    }

    @Test
    public void droppedRecordsNeverReachTheOfflineClusterAreMissingAtTheOfflineTierAndAreCommittedPast()
        throws Exception {
        live.createTopic("dropping", 1);
        long first = pastWindow(2);
        // 40 records in the first window, 20 in the second; the last one is dropped, so the commit must pass
        // a record that produced nothing
        List<String> sent = produce("dropping", 0, 60, "k", i -> first + (i < 40 ? i * 100L : WINDOW + i * 100L));
        try (MirrorMaker mirror = mirror("dropping", "g-dropping", DropKeys.class, "k3,k45,k59")) {
            mirror.start();
            Conditions.waitUntil(() -> committed("g-dropping", "dropping") == 60, 60_000, "the commit to cover all 60");
            assertEquals(57, mirror.counters().recordsOut());
        }
        List<String> expected = new ArrayList<>(sent);
        expected.removeAll(List.of("k3", "k45", "k59"));
        assertEquals("the others in order, the dropped ones nowhere", expected, keysOffline("dropping", 0));
        Map<String, Long> counts = auditCounts("dropping", first);
        assertEquals(Map.of("live/0", 40L, "live/1", 20L, "offline/0", 39L, "offline/1", 18L), counts);
    }

    @Test
    public void aRecordReturnedTwiceArrivesTwiceAndOneUnderAnotherTopicArrivesThere() throws Exception {
        live.createTopic("twice", 2);
        long first = pastWindow(1);
        produce("twice", 0, 10, "a", i -> first + i);
        try (MillraceProducer<String, String> producer = producer()) {
            producer.send(new ProducerRecord<>("twice", 1, first + 50, "b-twice", "v", List.of())).get();
            producer.send(new ProducerRecord<>("twice", 1, first + 51, "c-moved", "v", List.of())).get();
            producer.send(new ProducerRecord<>("twice", 1, first + 52, "d", "v", List.of())).get();
        }
        try (MirrorMaker mirror = mirror("twice", "g-twice", TwiceOrMoved.class, null)) {
            mirror.start();
            Conditions.waitUntil(() -> committed("g-twice", "twice") == 13, 60_000, "the commit to cover all 13");
        }
        assertEquals(10, keysOffline("twice", 0).size());
        assertEquals("copies keep their partition and order", List.of("b-twice", "b-twice", "d"), keysOffline("twice", 1));
        assertEquals("the moved record went to a topic of its own, created with the live topic's partitions",
            List.of("c-moved"), keysOffline("twice-moved", 1));
        assertEquals(List.of(), keysOffline("twice-moved", 0));
        assertEquals("the offline tier counts what the offline cluster acknowledged, per live record's topic",
            Map.of("live/0", 13L, "offline/0", 14L), auditCounts("twice", first));
    }

    /**
     * c10 makes two records: its copy, which the offline cluster takes, and a big one, which it refuses (a
     * batch of its own, batch.size being small). The live offset of c10 must stay uncommitted although one
     * of its records arrived.
     */
    @Test
    public void anOutputTheOfflineClusterRefusesStopsTheMirrorWithNoCommitPastItsLiveRecord() throws Exception {
        live.createTopic("refusing", 1);
        offline.createTopic("refusing", 1, Map.of("max.message.bytes", "2000"));
        long time = pastWindow(1);
        List<String> before = produce("refusing", 0, 10, "c", i -> time + i);
        try (MirrorMaker mirror = mirror("refusing", "g-refusing", RefusedSecondOutput.class, null,
                Map.of("batch.size", 1_000))) {
            mirror.start();
            Conditions.waitUntil(() -> committed("g-refusing", "refusing") == 10, 60_000, "c0 to c9 committed");
            produce("refusing", 10, 20, "c", i -> time + i);
            Conditions.waitUntil(() -> mirror.failure().isPresent(), 60_000, "the mirror to stop on the refused record");
            String message = mirror.failure().get().getMessage();
            assertTrue(message, message.contains("refused refusing-0 offset 10"));
        }
        List<String> arrived = new ArrayList<>(before);
        arrived.add("c10");
        assertEquals("c10's copy arrived, its big record and everything after it did not", arrived,
            keysOffline("refusing", 0));
        assertEquals("no commit past c10, the close's included", 10, committed("g-refusing", "refusing"));
    }

    @Test
    public void aHandlerThatThrowsStopsTheMirrorWithNoCommitPastTheRecord() throws Exception {
        live.createTopic("throwing", 1);
        produce("throwing", 0, 10, "t", i -> pastWindow(1) + i);
        try (MirrorMaker mirror = mirror("throwing", "g-throwing", ThrowsOnT5.class, null)) {
            mirror.start();
            Conditions.waitUntil(() -> mirror.failure().isPresent(), 60_000, "the mirror to stop");
            String message = mirror.failure().get().getMessage();
            assertTrue(message, message.contains("message handler failed on throwing-0 offset 5"));
        }
        assertTrue("committed past t5, close included", committed("g-throwing", "throwing") <= 5);
        assertFalse("nothing after t5 was sent", keysOffline("throwing", 0).contains("t6"));
    }

    @Test
    public void theHandlerIsMadeFromItsClassNameAndGivenItsArgs() {
        MirrorMakerConfig config = new MirrorMakerConfig(Map.of(MirrorMakerConfig.WHITELIST_CONFIG, "x",
            MirrorMakerConfig.MESSAGE_HANDLER_CONFIG, DropKeys.class.getName(),
            MirrorMakerConfig.MESSAGE_HANDLER_ARGS_CONFIG, "a,b"));
        DropKeys handler = (DropKeys) config.newMessageHandler();
        assertNotNull(handler);
        assertEquals(Set.of("a", "b"), handler.dropped);
        assertTrue("one instance per stream", handler != config.newMessageHandler());
        assertEquals(null, new MirrorMakerConfig(Map.of(MirrorMakerConfig.WHITELIST_CONFIG, "x")).newMessageHandler());
        try {
            new MirrorMakerConfig(Map.of(MirrorMakerConfig.WHITELIST_CONFIG, "x",
                MirrorMakerConfig.MESSAGE_HANDLER_CONFIG, "no.such.Handler")).newMessageHandler();
            fail("an unknown class is a configuration error");
        } catch (ConfigException e) {
            assertTrue(e.getMessage(), e.getMessage().contains(MirrorMakerConfig.MESSAGE_HANDLER_CONFIG));
        }
    }

    private static MirrorMaker mirror(String topic, String group, Class<? extends MirrorMessageHandler> handler,
                                      String args) {
        return mirror(topic, group, handler, args, Map.of());
    }

    private static MirrorMaker mirror(String topic, String group, Class<? extends MirrorMessageHandler> handler,
                                      String args, Map<String, Object> producerSettings) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(MirrorMakerConfig.WHITELIST_CONFIG, topic);
        settings.put(MirrorMakerConfig.OFFSET_COMMIT_INTERVAL_MS_CONFIG, 200L);
        settings.put(MirrorMakerConfig.MESSAGE_HANDLER_CONFIG, handler.getName());
        if (args != null) {
            settings.put(MirrorMakerConfig.MESSAGE_HANDLER_ARGS_CONFIG, args);
        }
        settings.put(MirrorMakerConfig.AUDIT_ENABLED_CONFIG, true);
        settings.put("audit.window.ms", WINDOW);
        settings.put("audit.lateness.ms", 0L);
        settings.put("audit.publish.interval.ms", 200L);
        Map<String, Object> source = new HashMap<>();
        source.put("bootstrap.servers", live.bootstrapServers());
        source.put("zookeeper.connect", live.zookeeperConnect());
        source.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        source.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "smallest");
        source.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
        Map<String, Object> producer = new HashMap<>(producerSettings);
        producer.put("bootstrap.servers", offline.bootstrapServers());
        producer.put("linger.ms", 5);
        producer.put(SourceCluster.SCHEMA_REGISTRY_URL_CONFIG, registry.urls().get(0));
        return new MirrorMaker(new MirrorMakerConfig(settings), List.of(new SourceCluster("live-h", source)), producer);
    }

    /** The start of the window {@code back} whole windows before the current one. */
    private static long pastWindow(int back) {
        long now = System.currentTimeMillis();
        return now - now % WINDOW - back * WINDOW;
    }

    private static MillraceProducer<String, String> producer() {
        return new MillraceProducer<>(Map.of("bootstrap.servers", live.bootstrapServers(), "linger.ms", 5),
            new StringSerializer(), new StringSerializer());
    }

    /** Sends records {@code from} to {@code to} (exclusive) to partition 0, keys {@code <prefix><i>}; returns the keys in order. */
    private static List<String> produce(String topic, int from, int to, String prefix,
                                        java.util.function.IntToLongFunction time) throws Exception {
        List<String> keys = new ArrayList<>();
        try (MillraceProducer<String, String> producer = producer()) {
            List<Future<?>> acks = new ArrayList<>();
            for (int i = from; i < to; i++) {
                keys.add(prefix + i);
                acks.add(producer.send(new ProducerRecord<>(topic, 0, time.applyAsLong(i), prefix + i, "v" + i, List.of())));
            }
            for (Future<?> ack : acks) {
                ack.get();
            }
        }
        return keys;
    }

    private static List<ConsumerRecord<String, String>> readOffline(String topic, int partition) {
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers",
                offline.bootstrapServers())))) {
            if (reader.partitionCount(topic) <= partition) {
                return records;
            }
            TopicPartition tp = new TopicPartition(topic, partition);
            reader.read(tp, reader.earliestOffset(tp), reader.latestOffset(tp), new StringDeserializer(),
                new StringDeserializer()).forEachRemaining(records::add);
        }
        return records;
    }

    private static List<String> keysOffline(String topic, int partition) {
        return readOffline(topic, partition).stream().map(ConsumerRecord::key).toList();
    }

    /** The sum of the group's committed offsets of {@code topic}'s partitions; -1 when none is committed. */
    private static long committed(String group, String topic) {
        Map<String, Object> settings = Map.of("zookeeper.connect", live.zookeeperConnect(),
            "bootstrap.servers", live.bootstrapServers(), ConsumerConfig.GROUP_ID_CONFIG, group);
        try (GroupOffsets offsets = new GroupOffsets(new ConsumerConfig(settings))) {
            return offsets.describe(group).stream().filter(row -> row.topic().equals(topic) && row.committedOffset() >= 0)
                .mapToLong(GroupOffsets.PartitionLag::committedOffset).reduce(Long::sum).orElse(-1);
        }
    }

    /** The audit's counts of {@code topic} summed per "tier/window", windows numbered from {@code first}. */
    private static Map<String, Long> auditCounts(String topic, long first) {
        AvroDeserializer<GenericRecord> decoder = new AvroDeserializer<>(new SchemaRegistryClient(
            Map.of("schema.registry.url", registry.urls().get(0))));
        Map<String, Long> counts = new TreeMap<>();
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers",
                offline.bootstrapServers())))) {
            for (int p = 0; p < reader.partitionCount("_audit"); p++) {
                TopicPartition tp = new TopicPartition("_audit", p);
                reader.read(tp, 0, reader.latestOffset(tp)).forEachRemaining(r -> {
                    GenericRecord record = decoder.deserialize("_audit", r.value());
                    GenericRecord body = (GenericRecord) record.get("body");
                    if (record.get("topic").toString().equals(topic) && body.getSchema().getName().equals("WindowCounts")) {
                        long window = ((Long) body.get("windowStart") - first) / WINDOW;
                        counts.merge(record.get("tier") + "/" + window, (Long) body.get("count"), Long::sum);
                    }
                });
            }
        }
        return counts;
    }

    private static String text(byte[] bytes) {
        return bytes == null ? "" : new String(bytes, StandardCharsets.UTF_8);
    }
}
