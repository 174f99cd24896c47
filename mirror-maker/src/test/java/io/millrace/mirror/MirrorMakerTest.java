package io.millrace.mirror;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.TopicPartition;
import io.millrace.common.serialization.StringDeserializer;
import io.millrace.common.serialization.StringSerializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.consumer.GroupOffsets;
import io.millrace.consumer.PartitionReader;
import io.millrace.producer.MillraceProducer;
import io.millrace.producer.ProducerRecord;
import io.millrace.testkit.Conditions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Three live clusters mirrored into one offline cluster, each a broker with its own ZooKeeper, all in
 * this JVM: every record arrives with its key, value, partition and timestamp, each live partition's
 * order kept; the live offsets are committed only for what arrived; a topic created mid-run is picked
 * up; a record the offline cluster refuses for good stops the mirror without committing past it.
 */
public class MirrorMakerTest {

    private static LocalCluster liveA;
    private static LocalCluster liveB;
    private static LocalCluster liveC;
    private static LocalCluster offline;

    @BeforeClass
    public static void startClusters() throws Exception {
        // distinct broker ids: the four brokers share this JVM's JMX names, which carry the id
        liveA = LocalCluster.start(1, Map.of("broker.id", 1));
        liveB = LocalCluster.start(1, Map.of("broker.id", 2));
        liveC = LocalCluster.start(1, Map.of("broker.id", 4));
        offline = LocalCluster.start(1, Map.of("broker.id", 3));
    }

    @AfterClass
    public static void stopClusters() {
        for (LocalCluster cluster : new LocalCluster[] {liveA, liveB, liveC, offline}) {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    @Test
    public void threeLiveClustersArriveWholeInOrderPerPartitionAndOnlyMirroredOffsetsAreCommitted() throws Exception {
        liveA.createTopic("page-views", 3);
        liveB.createTopic("page-views", 3);
        liveC.createTopic("page-views", 3);
        List<ProducerRecord<String, String>> sentA = produce(liveA, "page-views", 3, 200, "a");
        List<ProducerRecord<String, String>> sentB = produce(liveB, "page-views", 3, 200, "b");
        List<ProducerRecord<String, String>> sentC = produce(liveC, "page-views", 3, 200, "c");

        try (MirrorMaker mirror = mirror("page-.*", "g-views")) {
            mirror.start();
            Conditions.waitUntil(() -> mirror.counters().recordsOut() >= 1_800, 60_000, "every record mirrored");
            javax.management.MBeanServer jmx = java.lang.management.ManagementFactory.getPlatformMBeanServer();
            javax.management.ObjectName liveAViews = new javax.management.ObjectName(
                "io.millrace:type=mirror-topic-metrics,cluster=\"live-a\",topic=\"page-views\"");
            assertEquals(600L, jmx.getAttribute(liveAViews, "RecordsOut"));
            assertEquals(600L, jmx.getAttribute(liveAViews, "RecordsIn"));
            assertTrue((Long) jmx.getAttribute(liveAViews, "BytesOut") > 0);
            double rate = (Double) jmx.getAttribute(liveAViews, "RecordsOutPerSec");
            assertTrue("600 records within the last seconds: a rate, not a count, " + rate, rate > 0 && rate <= 600);
            assertEquals(1_800L, jmx.getAttribute(new javax.management.ObjectName("io.millrace:type=mirror-metrics"),
                "RecordsOut"));
            Conditions.waitUntil(() -> Long.valueOf(0).equals(attribute(jmx, liveAViews, "RecordsLagMax")), 30_000,
                "the lag to reach 0 once everything is mirrored");
            javax.management.openmbean.TabularData lag =
                (javax.management.openmbean.TabularData) jmx.getAttribute(liveAViews, "RecordsLag");
            assertEquals("one lag per live partition", 3, lag.size());
            for (int p = 0; p < 3; p++) {
                assertEquals(0L, lag.get(new Object[] {p}).get("value"));
            }
            liveA.createTopic("page-clicks", 2);
            List<ProducerRecord<String, String>> clicks = produce(liveA, "page-clicks", 2, 50, "c");
            Conditions.waitUntil(() -> mirror.counters().recordsOut("page-clicks") >= 100, 60_000,
                "a topic created mid-run to be mirrored");
            assertEquals(clicks.size(), readAll("page-clicks", 2).size());
        }
        List<ConsumerRecord<String, String>> mirrored = readAll("page-views", 3);
        assertEquals("nothing lost, nothing twice", 1_800, mirrored.size());
        for (int p = 0; p < 3; p++) {
            assertEquals("live A's partition " + p + " in order", values(sentA, p), valuesFrom(mirrored, p, "a-"));
            assertEquals("live B's partition " + p + " in order", values(sentB, p), valuesFrom(mirrored, p, "b-"));
            assertEquals("live C's partition " + p + " in order", values(sentC, p), valuesFrom(mirrored, p, "c-"));
        }
        ConsumerRecord<String, String> first = mirrored.stream().filter(r -> r.value().equals(sentA.get(0).value()))
            .findFirst().orElseThrow();
        assertEquals(sentA.get(0).key(), first.key());
        assertEquals(sentA.get(0).timestamp().longValue(), first.timestamp());
        assertEquals(List.of(200L, 200L, 200L), committed(liveA, "g-views", "page-views"));
        assertEquals(List.of(200L, 200L, 200L), committed(liveB, "g-views", "page-views"));
        assertEquals(List.of(200L, 200L, 200L), committed(liveC, "g-views", "page-views"));
    }

    /**
     * As after a crash: live A's group last committed offset 60 of each partition although everything
     * was copied. The next mirror reads 80 records again and counts exactly those as duplicates, skipping
     * over live B's records in the same offline partitions, and nothing it copies for the first time; it
     * does not write them again, so the offline topic holds every record once.
     */
    @Test
    public void aMirrorThatCopiesAgainFromAnOlderCommitCountsExactlyTheRecordsTheOfflineClusterHeld() throws Exception {
        liveA.createTopic("re-copies", 2);
        liveB.createTopic("re-copies", 2);
        produce(liveA, "re-copies", 2, 100, "a");
        produce(liveB, "re-copies", 2, 100, "b");
        try (MirrorMaker mirror = mirror("re-copies", "g-recopy")) {
            mirror.start();
            Conditions.waitUntil(() -> mirror.counters().recordsOut() >= 400, 60_000, "every record mirrored");
            assertEquals("a first copy is no duplicate", 0, mirror.counters().duplicates());
        }
        resetOffsets(liveA, "g-recopy", Map.of(new TopicPartition("re-copies", 0), 60L,
            new TopicPartition("re-copies", 1), 60L));
        produce(liveA, "re-copies", 2, 10, "a-new");
        produce(liveB, "re-copies", 2, 10, "b-new");
        try (MirrorMaker mirror = mirror("re-copies", "g-recopy")) {
            mirror.start();
            Conditions.waitUntil(() -> mirror.counters().recordsOut() >= 80 + 20 + 20, 60_000, "the re-copy and the new records");
            assertEquals(80, mirror.counters().duplicates());
            javax.management.MBeanServer jmx = java.lang.management.ManagementFactory.getPlatformMBeanServer();
            assertEquals(80L, jmx.getAttribute(new javax.management.ObjectName(
                "io.millrace:type=mirror-topic-metrics,cluster=\"live-a\",topic=\"re-copies\""), "Duplicates"));
            assertEquals(0L, jmx.getAttribute(new javax.management.ObjectName(
                "io.millrace:type=mirror-topic-metrics,cluster=\"live-b\",topic=\"re-copies\""), "Duplicates"));
        }
        List<String> offline = readAll("re-copies", 2).stream().map(ConsumerRecord::value).toList();
        assertEquals(400 + 40, offline.size());
        assertEquals("every record once", offline.size(), new java.util.HashSet<>(offline).size());
    }

    @Test
    public void anOfflineTopicIsCreatedWithTheLiveTopicsOwnSettingsLessTheExcludedOnes() throws Exception {
        liveA.createTopic("kept-a-day", 2, Map.of("retention.ms", "86400000", "max.message.bytes", "50000",
            "message.timestamp.type", "LogAppendTime"));
        produce(liveA, "kept-a-day", 2, 5, "s");
        try (MirrorMaker mirror = mirror("kept-a-day", "g-settings")) {
            mirror.start();
            Conditions.waitUntil(() -> mirror.counters().recordsOut() >= 10, 60_000, "the records mirrored");
        }
        io.millrace.common.client.NetworkClient client = new io.millrace.common.client.NetworkClient(
            io.millrace.common.client.NetworkClient.Options.defaults("settings-test"));
        try (io.millrace.common.client.Metadata metadata = new io.millrace.common.client.Metadata(client,
                io.millrace.common.client.CommonClientConfigs.bootstrap(new ConsumerConfig(Map.of("bootstrap.servers",
                    offline.bootstrapServers()))), 100, 60_000)) {
            Map<String, String> offlineSettings = new TopicSettings(client, metadata, 10_000, java.util.Set.of(), "offline")
                .of("kept-a-day");
            assertEquals("retention and size copied; the timestamp type left to the offline cluster (the mirror keeps "
                + "each record's time)", Map.of("retention.ms", "86400000", "max.message.bytes", "50000"), offlineSettings);
        } finally {
            client.close();
        }
    }

    private static void resetOffsets(LocalCluster cluster, String group, Map<TopicPartition, Long> offsets) {
        Map<String, Object> settings = Map.of("zookeeper.connect", cluster.zookeeperConnect(),
            "bootstrap.servers", cluster.bootstrapServers(), ConsumerConfig.GROUP_ID_CONFIG, group);
        try (GroupOffsets registry = new GroupOffsets(new ConsumerConfig(settings))) {
            Conditions.waitUntil(() -> registry.members(group).isEmpty(), "the group to be empty");
            registry.executeReset(group, offsets);
        }
    }

    private static Object attribute(javax.management.MBeanServer jmx, javax.management.ObjectName name, String attribute) {
        try {
            return jmx.getAttribute(name, attribute);
        } catch (javax.management.JMException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    public void aRecordTheOfflineClusterRefusesStopsTheMirrorAndNothingPastItIsCommitted() throws Exception {
        liveA.createTopic("big-events", 1);
        offline.createTopic("big-events", 1, Map.of("max.message.bytes", "2000"));
        List<ProducerRecord<String, String>> small = produce(liveA, "big-events", 1, 20, "s");
        try (MillraceProducer<String, String> producer = producer(liveA)) {
            producer.send(new ProducerRecord<>("big-events", 0, "big", "x".repeat(10_000))).get();
        }
        produce(liveA, "big-events", 1, 20, "after");
        try (MirrorMaker mirror = mirror("big-.*", "g-big")) {
            mirror.start();
            Conditions.waitUntil(() -> mirror.failure().isPresent(), 60_000, "the mirror to stop on the refused record");
            String message = mirror.failure().get().getMessage();
            // The producer sends (and the broker refuses) whole batches: the error names the first record of
            // the refused batch, which holds the big one at offset 20.
            java.util.regex.Matcher named = java.util.regex.Pattern.compile("big-events-0 offset (\\d+)").matcher(message);
            assertTrue(message, named.find() && Long.parseLong(named.group(1)) <= 20);
            assertTrue(message, message.contains("max.message.bytes"));
            long refused = Long.parseLong(named.group(1));
            List<Long> offsets = committed(liveA, "g-big", "big-events");
            long committed = offsets.isEmpty() ? -1 : offsets.get(0);   // -1: nothing committed
            assertTrue("committed " + committed + ", past the refused record at " + refused, committed <= refused);
            List<ConsumerRecord<String, String>> arrived = readAll("big-events", 1);
            assertTrue("everything below the commit arrived: " + arrived.size(), arrived.size() >= committed);
            assertEquals("nothing from the refused batch on: " + arrived.stream().map(ConsumerRecord::value).toList(), refused, arrived.size());
            assertEquals(small.subList(0, (int) refused).stream().map(ProducerRecord::value).toList(),
                arrived.stream().map(ConsumerRecord::value).toList());
        }
    }

    /**
     * Five requests in flight: the batches sent behind the refused one are refused by the offline broker
     * for the gap in the producer's sequence, and the producer, closed from the refused record's
     * callback, sends none of them again under a new epoch.
     */
    @Test
    public void batchesInFlightBehindARefusedOneNeverReachTheOfflineCluster() throws Exception {
        assertNothingPastARefusedBatchArrives("huge-events", Map.of("linger.ms", 0));
    }

    /** Without sequence numbers the broker would append what is in flight behind a refused batch: one request at a time. */
    @Test
    public void aMirrorWhoseProducerIsNotIdempotentKeepsOneRequestInFlight() throws Exception {
        assertNothingPastARefusedBatchArrives("huge-plain-events", Map.of("linger.ms", 0, "enable.idempotence", false));
    }

    private void assertNothingPastARefusedBatchArrives(String topic, Map<String, Object> producerSettings) throws Exception {
        liveA.createTopic(topic, 1);
        offline.createTopic(topic, 1, Map.of("max.message.bytes", "20000"));
        List<String> small = new ArrayList<>();
        // small live batches, each copied as one offline batch the offline topic takes, and one it refuses
        try (MillraceProducer<String, String> producer = new MillraceProducer<>(Map.of("bootstrap.servers",
                liveA.bootstrapServers(), "linger.ms", 5, "batch.size", 2_000), new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < 20; i++) {
                small.add("s-" + i);
                producer.send(new ProducerRecord<>(topic, 0, "k", small.get(i)));
            }
            producer.flush();
            producer.send(new ProducerRecord<>(topic, 0, "big", "x".repeat(50_000))).get();
            Future<?> last = null;
            for (int i = 0; i < 2_000; i++) {
                last = producer.send(new ProducerRecord<>(topic, 0, "k", "after-" + i));
            }
            last.get();
        }
        String group = "g-" + topic;
        try (MirrorMaker mirror = mirror(topic, group, producerSettings)) {
            mirror.start();
            Conditions.waitUntil(() -> mirror.failure().isPresent(), 60_000, "the mirror to stop on the refused record");
            String message = mirror.failure().get().getMessage();
            assertTrue(message, message.contains(topic + "-0 offset 20") && message.contains("max.message.bytes"));
            List<Long> offsets = committed(liveA, group, topic);
            assertTrue("committed " + offsets + ", past the refused record at 20", offsets.isEmpty() || offsets.get(0) <= 20);
            // what the batches in flight would have written, had the broker taken them, arrives by then
            Thread.sleep(500);
            assertEquals(small, readAll(topic, 1).stream().map(ConsumerRecord::value).toList());
        }
    }

    @Test
    public void recordsRetentionDeletedBeforeTheyWereMirroredAreALostRangeNotASilentReset() throws Exception {
        liveA.createTopic("gap-events", 1, Map.of("segment.bytes", "20000"));
        produce(liveA, "gap-events", 1, 50, "before");
        try (MirrorMaker mirror = mirror("gap-.*", "g-gap")) {
            mirror.start();
            Conditions.waitUntil(() -> mirror.counters().recordsOut() >= 50, 60_000, "the first records mirrored");
        }
        assertEquals(List.of(50L), committed(liveA, "g-gap", "gap-events"));
        produce(liveA, "gap-events", 1, 1_000, "unmirrored");
        io.millrace.broker.log.LogManager logs = liveA.broker(0).logManager();
        logs.setTopicConfig("gap-events", Map.of("segment.bytes", "20000", "retention.bytes", "1"));
        assertTrue("retention deleted segments", logs.cleanupLogs() > 0);
        long earliest;
        long latest;
        TopicPartition tp = new TopicPartition("gap-events", 0);
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers",
                liveA.bootstrapServers())))) {
            earliest = reader.earliestOffset(tp);
            latest = reader.latestOffset(tp);
        }
        assertTrue("the gap reaches past what was mirrored: " + earliest, earliest > 50);

        try (MirrorMaker mirror = mirror("gap-.*", "g-gap")) {
            mirror.start();
            Conditions.waitUntil(() -> mirror.counters().recordsOut() >= latest - earliest, 60_000, "the rest mirrored");
            assertEquals(List.of(new MirrorCounters.LostRange("live-a", "gap-events", 0, 50, earliest)),
                mirror.counters().lostRanges());
            assertEquals(earliest - 50, mirror.counters().lostRecords());
        }
        assertEquals(50 + (latest - earliest), readAll("gap-events", 1).size());
    }

    @Test
    public void withTheRenamePolicyEachLiveClusterGetsAnOfflineTopicOfItsOwn() throws Exception {
        liveA.createTopic("renamed", 2);
        liveB.createTopic("renamed", 2);
        produce(liveA, "renamed", 2, 30, "a");
        produce(liveB, "renamed", 2, 20, "b");
        Map<String, Object> settings = Map.of(MirrorMakerConfig.WHITELIST_CONFIG, "renamed",
            MirrorMakerConfig.TOPIC_RENAME_CONFIG, MirrorMakerConfig.RENAME_PREFIX);
        try (MirrorMaker mirror = new MirrorMaker(new MirrorMakerConfig(settings),
                List.of(source("live-a", liveA, "g-renamed"), source("live-b", liveB, "g-renamed")),
                Map.of("bootstrap.servers", offline.bootstrapServers()))) {
            mirror.start();
            Conditions.waitUntil(() -> mirror.counters().recordsOut() >= 100, 60_000, "every record mirrored");
        }
        assertEquals(60, readAll("live-a.renamed", 2).size());
        assertEquals(40, readAll("live-b.renamed", 2).size());
        assertTrue(readAll("live-a.renamed", 2).stream().allMatch(r -> r.value().startsWith("a-")));
    }

    @Test
    public void anAbortedTransactionsRecordsAreNotCopied() throws Exception {
        liveA.createTopic("transacted", 1);
        // what a transactional producer leaves in the live log: commit, abort, commit (the coordinator's markers)
        io.millrace.broker.log.Log log = liveA.broker(0).logManager().getLog("transacted", 0).orElseThrow();
        int sequence = 0;
        for (String[] transaction : new String[][] {{"c-0", "c-1", "commit"}, {"x-0", "x-1", "abort"}, {"c-2", "commit"}}) {
            io.millrace.common.record.RecordBatchBuilder batch = io.millrace.common.record.RecordBatchBuilder.create(
                io.millrace.common.record.CompressionType.NONE, 0, 256).producerState(77L, (short) 0, sequence, true);
            for (int i = 0; i < transaction.length - 1; i++) {
                batch.append(1_700_000_000_000L, null, transaction[i].getBytes(java.nio.charset.StandardCharsets.UTF_8));
                sequence++;
            }
            log.append(batch.build());
            log.appendMarker(77L, (short) 0, new io.millrace.common.record.EndTransactionMarker(
                transaction[transaction.length - 1].equals("commit"), 0), -1);
        }
        long end = log.logEndOffset();
        try (MirrorMaker mirror = mirror("transacted", "g-transacted")) {
            mirror.start();
            Conditions.waitUntil(() -> committed(liveA, "g-transacted", "transacted").equals(List.of(end)), 60_000,
                "the live partition mirrored to its end");
        }
        assertEquals(List.of("c-0", "c-1", "c-2"), readAll("transacted", 1).stream().map(ConsumerRecord::value).toList());
    }

    private static MirrorMaker mirror(String whitelist, String group) {
        return mirror(whitelist, group, Map.of());
    }

    private static MirrorMaker mirror(String whitelist, String group, Map<String, Object> producerSettings) {
        Map<String, Object> settings = Map.of(MirrorMakerConfig.WHITELIST_CONFIG, whitelist,
            MirrorMakerConfig.OFFSET_COMMIT_INTERVAL_MS_CONFIG, 200L);
        Map<String, Object> producer = new HashMap<>(Map.of("bootstrap.servers", offline.bootstrapServers(), "linger.ms", 5));
        producer.putAll(producerSettings);
        return new MirrorMaker(new MirrorMakerConfig(settings),
            List.of(source("live-a", liveA, group), source("live-b", liveB, group), source("live-c", liveC, group)),
            producer);
    }

    private static SourceCluster source(String name, LocalCluster cluster, String group) {
        Map<String, Object> settings = new HashMap<>();
        settings.put("bootstrap.servers", cluster.bootstrapServers());
        settings.put("zookeeper.connect", cluster.zookeeperConnect());
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "smallest");
        settings.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
        settings.put(ConsumerConfig.REBALANCE_BACKOFF_MS_CONFIG, 200);
        settings.put("metadata.max.age.ms", 500L);
        return new SourceCluster(name, settings);
    }

    private static MillraceProducer<String, String> producer(LocalCluster cluster) {
        return new MillraceProducer<>(Map.of("bootstrap.servers", cluster.bootstrapServers(), "linger.ms", 5),
            new StringSerializer(), new StringSerializer());
    }

    private static List<ProducerRecord<String, String>> produce(LocalCluster cluster, String topic, int partitions,
                                                               int perPartition, String tag) throws Exception {
        List<ProducerRecord<String, String>> sent = new ArrayList<>();
        try (MillraceProducer<String, String> producer = producer(cluster)) {
            List<Future<?>> acks = new ArrayList<>();
            for (int i = 0; i < perPartition; i++) {
                for (int p = 0; p < partitions; p++) {
                    ProducerRecord<String, String> record = new ProducerRecord<>(topic, p, 1_700_000_000_000L + i,
                        "key-" + i, tag + "-" + p + "-" + i, List.of());
                    acks.add(producer.send(record));
                    sent.add(record);
                }
            }
            for (Future<?> ack : acks) {
                ack.get();
            }
        }
        return sent;
    }

    private static List<ConsumerRecord<String, String>> readAll(String topic, int partitions) {
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers",
                offline.bootstrapServers())))) {
            for (int p = 0; p < partitions; p++) {
                TopicPartition tp = new TopicPartition(topic, p);
                Iterator<ConsumerRecord<String, String>> it = reader.read(tp, reader.earliestOffset(tp), reader.latestOffset(tp),
                    new StringDeserializer(), new StringDeserializer());
                it.forEachRemaining(records::add);
            }
        }
        return records;
    }

    private static List<String> values(List<ProducerRecord<String, String>> sent, int partition) {
        return sent.stream().filter(r -> r.partition() == partition).map(ProducerRecord::value).toList();
    }

    private static List<String> valuesFrom(List<ConsumerRecord<String, String>> mirrored, int partition, String prefix) {
        return mirrored.stream().filter(r -> r.partition() == partition && r.value().startsWith(prefix))
            .map(ConsumerRecord::value).toList();
    }

    private static List<Long> committed(LocalCluster cluster, String group, String topic) {
        Map<String, Object> settings = Map.of("zookeeper.connect", cluster.zookeeperConnect(),
            "bootstrap.servers", cluster.bootstrapServers(), ConsumerConfig.GROUP_ID_CONFIG, group);
        try (GroupOffsets offsets = new GroupOffsets(new ConsumerConfig(settings))) {
            return offsets.describe(group).stream().filter(row -> row.topic().equals(topic))
                .sorted(java.util.Comparator.comparingInt(GroupOffsets.PartitionLag::partition))
                .map(GroupOffsets.PartitionLag::committedOffset).toList();
        }
    }
}
