package io.millrace.mirror;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.TopicPartition;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.Header;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.serialization.StringSerializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.consumer.FetchedBatches;
import io.millrace.consumer.GroupOffsets;
import io.millrace.consumer.PartitionReader;
import io.millrace.producer.MillraceProducer;
import io.millrace.producer.ProducerRecord;
import io.millrace.testkit.Conditions;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The mirror's whole-batch copy (batch.copy.enabled): live batches arrive offline as they were (their
 * compression shows it, since the mirror's producer compresses nothing), with every record's key, value,
 * timestamp and headers, counted as the record-by-record copy counts them; a start inside a batch copies
 * that batch's tail record by record and the rest whole.
 */
public class BatchCopyTest {

    private static final int BATCHES = 4;
    private static final int PER_BATCH = 25;

    private static LocalCluster live;
    private static LocalCluster offline;

    @BeforeClass
    public static void startClusters() throws Exception {
        live = LocalCluster.start(1, Map.of("broker.id", 11));
        offline = LocalCluster.start(1, Map.of("broker.id", 12));
    }

    @AfterClass
    public static void stopClusters() {
        for (LocalCluster cluster : new LocalCluster[] {live, offline}) {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    @Test
    public void liveBatchesArriveAsTheyWereWithEveryRecordCountedOnce() throws Exception {
        List<ProducerRecord<String, String>> sent = produceLz4Batches("whole");
        long keyAndValueBytes = sent.stream().mapToLong(r -> r.key().length() + r.value().length()).sum();
        try (MirrorMaker mirror = mirror("whole", "g-whole", true)) {
            mirror.start();
            Conditions.waitUntil(() -> mirror.counters().recordsOut() >= sent.size(), 60_000, "every record mirrored");
            MirrorCounters.TopicCounters counters = mirror.counters().topic("live", "whole");
            assertEquals(sent.size(), counters.getRecordsIn());
            assertEquals(sent.size(), counters.getRecordsOut());
            assertEquals(keyAndValueBytes, counters.getBytesIn());
            assertEquals(keyAndValueBytes, counters.getBytesOut());
            assertTrue("latency from 2023 timestamps: " + counters.getLatencyAvgMs(),
                counters.getLatencyAvgMs() > 365L * 24 * 3600 * 1000);
        }
        assertEquals(sent.size(), offlineRecords("whole").size());
        assertSameRecords(sent, offlineRecords("whole"));
        assertEquals(List.of(CompressionType.LZ4), offlineCompressions("whole").stream().distinct().toList());
    }

    @Test
    public void smallUncompressedLiveBatchesFillTheOfflineProducersBatches() throws Exception {
        List<ProducerRecord<String, String>> sent = produceBatches("small", "none");
        try (MirrorMaker mirror = mirror("small", "g-small", true)) {
            mirror.start();
            Conditions.waitUntil(() -> mirror.counters().recordsOut() >= sent.size(), 60_000, "every record mirrored");
        }
        assertSameRecords(sent, offlineRecords("small"));
        List<CompressionType> compressions = offlineCompressions("small");
        assertTrue(BATCHES + " live batches in " + compressions.size() + " offline ones", compressions.size() < BATCHES);
    }

    @Test
    public void withBatchCopyOffEveryRecordIsEncodedAgainByTheMirrorsProducer() throws Exception {
        List<ProducerRecord<String, String>> sent = produceLz4Batches("encoded");
        try (MirrorMaker mirror = mirror("encoded", "g-encoded", false)) {
            mirror.start();
            Conditions.waitUntil(() -> mirror.counters().recordsOut() >= sent.size(), 60_000, "every record mirrored");
        }
        assertSameRecords(sent, offlineRecords("encoded"));
        assertEquals(List.of(CompressionType.NONE), offlineCompressions("encoded").stream().distinct().toList());
    }

    @Test
    public void aStartInsideABatchCopiesItsTailRecordByRecordAndTheNextBatchesWhole() throws Exception {
        List<ProducerRecord<String, String>> sent = produceLz4Batches("resumed");
        int from = PER_BATCH + 10;   // inside the second batch
        Map<String, Object> settings = Map.of("zookeeper.connect", live.zookeeperConnect(),
            "bootstrap.servers", live.bootstrapServers(), ConsumerConfig.GROUP_ID_CONFIG, "g-resumed");
        try (GroupOffsets registry = new GroupOffsets(new ConsumerConfig(settings))) {
            registry.executeReset("g-resumed", Map.of(new TopicPartition("resumed", 0), (long) from));
        }
        try (MirrorMaker mirror = mirror("resumed", "g-resumed", true)) {
            mirror.start();
            Conditions.waitUntil(() -> mirror.counters().recordsOut() >= sent.size() - from, 60_000,
                "the records from the committed offset on mirrored");
        }
        List<ConsumerRecord<byte[], byte[]>> copied = offlineRecords("resumed");
        assertSameRecords(sent.subList(from, sent.size()), copied);
        List<CompressionType> compressions = offlineCompressions("resumed");
        assertEquals("the tail of the batch the mirror started in, encoded again", CompressionType.NONE, compressions.get(0));
        assertEquals("the batches after it, whole", List.of(CompressionType.LZ4),
            compressions.subList(1, compressions.size()).stream().distinct().toList());
        assertEquals(BATCHES - 2, compressions.size() - 1);
    }

    private static List<ProducerRecord<String, String>> produceLz4Batches(String topic) throws Exception {
        return produceBatches(topic, "lz4");
    }

    /** BATCHES batches of PER_BATCH records, each sent and acknowledged before the next. */
    private static List<ProducerRecord<String, String>> produceBatches(String topic, String compression) throws Exception {
        live.createTopic(topic, 1);
        List<ProducerRecord<String, String>> sent = new ArrayList<>();
        try (MillraceProducer<String, String> producer = new MillraceProducer<>(Map.of("bootstrap.servers",
                live.bootstrapServers(), "linger.ms", 50, "compression.type", compression), new StringSerializer(),
                new StringSerializer())) {
            for (int b = 0; b < BATCHES; b++) {
                List<java.util.concurrent.Future<?>> acks = new ArrayList<>();
                for (int i = 0; i < PER_BATCH; i++) {
                    int n = b * PER_BATCH + i;
                    ProducerRecord<String, String> record = new ProducerRecord<>(topic, 0, 1_700_000_000_000L + n,
                        "key-" + n, "value-" + n, List.of(new Header("n", Integer.toString(n).getBytes())));
                    acks.add(producer.send(record));
                    sent.add(record);
                }
                for (java.util.concurrent.Future<?> ack : acks) {
                    ack.get();
                }
            }
        }
        return sent;
    }

    private static MirrorMaker mirror(String whitelist, String group, boolean batchCopy) {
        Map<String, Object> mirrorSettings = Map.of(MirrorMakerConfig.WHITELIST_CONFIG, whitelist,
            MirrorMakerConfig.OFFSET_COMMIT_INTERVAL_MS_CONFIG, 200L, MirrorMakerConfig.BATCH_COPY_ENABLED_CONFIG, batchCopy);
        Map<String, Object> source = new HashMap<>();
        source.put("bootstrap.servers", live.bootstrapServers());
        source.put("zookeeper.connect", live.zookeeperConnect());
        source.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        source.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "smallest");
        source.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
        return new MirrorMaker(new MirrorMakerConfig(mirrorSettings), List.of(new SourceCluster("live", source)),
            Map.of("bootstrap.servers", offline.bootstrapServers(), "linger.ms", 100));
    }

    private static List<ConsumerRecord<byte[], byte[]>> offlineRecords(String topic) {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (PartitionReader reader = reader()) {
            TopicPartition tp = new TopicPartition(topic, 0);
            reader.read(tp, 0, reader.latestOffset(tp)).forEachRemaining(records::add);
        }
        return records;
    }

    /** The codec of each batch the offline partition holds, in order. */
    private static List<CompressionType> offlineCompressions(String topic) {
        List<CompressionType> codecs = new ArrayList<>();
        try (PartitionReader reader = reader()) {
            TopicPartition tp = new TopicPartition(topic, 0);
            long offset = 0;
            long end = reader.latestOffset(tp);
            while (offset < end) {
                FetchedBatches fetched = reader.fetch(tp, offset);
                for (RecordBatch batch : fetched.batches()) {
                    codecs.add(batch.compressionType());
                }
                offset = fetched.nextOffset();
            }
        }
        return codecs;
    }

    private static PartitionReader reader() {
        return new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers", offline.bootstrapServers())));
    }

    private static void assertSameRecords(List<ProducerRecord<String, String>> sent, List<ConsumerRecord<byte[], byte[]>> copied) {
        assertEquals(sent.size(), copied.size());
        for (int i = 0; i < sent.size(); i++) {
            ProducerRecord<String, String> expected = sent.get(i);
            ConsumerRecord<byte[], byte[]> actual = copied.get(i);
            assertEquals(expected.key(), new String(actual.key(), StandardCharsets.UTF_8));
            assertEquals(expected.value(), new String(actual.value(), StandardCharsets.UTF_8));
            assertEquals(expected.timestamp().longValue(), actual.timestamp());
            assertEquals(1, actual.headers().size());
            assertEquals(expected.headers().get(0).key(), actual.headers().get(0).key());
            assertEquals(new String(expected.headers().get(0).value()), new String(actual.headers().get(0).value()));
        }
    }
}
