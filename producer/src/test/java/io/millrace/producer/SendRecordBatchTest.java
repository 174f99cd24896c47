package io.millrace.producer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.errors.CorruptRecordException;
import io.millrace.common.errors.RecordTooLargeException;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.common.serialization.StringSerializer;
import io.millrace.producer.PartitionContents.Stored;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/** {@link MillraceProducer#sendRecordBatch}: a fetched batch goes to another cluster as it is. */
public class SendRecordBatchTest {

    private static LocalCluster cluster;

    @BeforeClass
    public static void startCluster() throws Exception {
        cluster = LocalCluster.start();
    }

    @AfterClass
    public static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static MillraceProducer<String, String> producer(Map<String, Object> overrides) {
        Map<String, Object> props = new java.util.HashMap<>(Map.of("bootstrap.servers", cluster.bootstrapServers(),
            "linger.ms", 5));
        props.putAll(overrides);
        return new MillraceProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    /** A batch as an idempotent producer of another cluster wrote it, found at offset 500 of its partition there. */
    private static RecordBatch sourceBatch(CompressionType compression, String prefix, int count) {
        RecordBatchBuilder builder = RecordBatchBuilder.create(compression, 500L, 1024)
            .producerState(77L, (short) 2, 1_000, false)
            .partitionLeaderEpoch(9);
        for (int i = 0; i < count; i++) {
            builder.append(1_700_000_000_000L + i, ("k" + i).getBytes(), (prefix + i).getBytes());
        }
        return RecordBatch.wrap(builder.build());
    }

    @Test
    public void theBatchArrivesWithItsRecordsCompressionAndOrderAmongRecordsSentAroundIt() throws Exception {
        cluster.createTopic("copied", 2);
        RecordBatch lz4 = sourceBatch(CompressionType.LZ4, "lz4-", 5);
        RecordBatch plain = sourceBatch(CompressionType.NONE, "plain-", 3);
        ByteBuffer untouched = lz4.slice();
        AtomicReference<RecordMetadata> seen = new AtomicReference<>();
        RecordMetadata first;
        try (MillraceProducer<String, String> producer = producer(Map.of())) {
            producer.send(new ProducerRecord<>("copied", 1, "before", "before"));
            first = producer.sendRecordBatch("copied", 1, lz4, (metadata, e) -> seen.set(metadata)).get();
            producer.send(new ProducerRecord<>("copied", 1, "between", "between"));
            producer.sendRecordBatch("copied", 1, plain, null);
            producer.send(new ProducerRecord<>("copied", 1, "after", "after")).get();
        }
        assertEquals(1L, first.offset());
        assertEquals(first.offset(), seen.get().offset());
        assertEquals("the caller's batch is left as it was", untouched, lz4.slice());
        List<Stored> stored = PartitionContents.read(cluster.bootstrapServers(), "copied", 1);
        assertEquals(List.of("before", "lz4-0", "lz4-1", "lz4-2", "lz4-3", "lz4-4", "between", "plain-0", "plain-1",
            "plain-2", "after"), stored.stream().map(Stored::value).toList());
        assertEquals("k3", stored.get(4).key());
        for (int i = 0; i < stored.size(); i++) {
            assertEquals(i, stored.get(i).offset());
        }
        assertEquals(CompressionType.LZ4, stored.get(1).compression());
    }

    @Test
    public void smallUncompressedBatchesFillTheProducersOwnBatches() throws Exception {
        cluster.createTopic("copied-small", 1);
        List<String> expected = new java.util.ArrayList<>();
        List<java.util.concurrent.Future<RecordMetadata>> futures = new java.util.ArrayList<>();
        try (MillraceProducer<String, String> producer = producer(Map.of("linger.ms", 200, "batch.size", 65_536))) {
            for (int b = 0; b < 10; b++) {
                futures.add(producer.sendRecordBatch("copied-small", 0, sourceBatch(CompressionType.NONE, "b" + b + "-", 5),
                    null));
                for (int i = 0; i < 5; i++) {
                    expected.add("b" + b + "-" + i);
                }
            }
        }
        for (int b = 0; b < 10; b++) {
            assertEquals("each batch's future has its first record's offset", 5L * b, futures.get(b).get().offset());
        }
        List<Stored> stored = PartitionContents.read(cluster.bootstrapServers(), "copied-small", 0);
        assertEquals(expected, stored.stream().map(Stored::value).toList());
        assertEquals("ten batches of five went out as one", 1, stored.stream().mapToLong(Stored::batchOffset).distinct().count());
    }

    /**
     * A batch that would fill one of the producer's own goes as it came when the producer has no codec
     * to apply, its records in a batch of their own between the records sent around it; with a codec,
     * or when it is smaller, its records are written again into the producer's open batch.
     */
    @Test
    public void anUncompressedBatchOfBatchSizeGoesWholeUnlessTheProducerCompresses() throws Exception {
        cluster.createTopic("copied-whole", 3);
        RecordBatch large = sourceBatch(CompressionType.NONE, "w".repeat(200), 100);
        int size = large.sizeInBytes();
        List<Map<String, Object>> settings = List.of(
            Map.of("batch.size", size, "compression.type", "none"),
            Map.of("batch.size", 4 * size, "compression.type", "lz4"),
            Map.of("batch.size", 4 * size, "compression.type", "none"));
        for (int partition = 0; partition < 3; partition++) {
            Map<String, Object> overrides = new java.util.HashMap<>(settings.get(partition));
            overrides.put("linger.ms", 200);
            try (MillraceProducer<String, String> producer = producer(overrides)) {
                producer.send(new ProducerRecord<>("copied-whole", partition, "before", "before"));
                producer.sendRecordBatch("copied-whole", partition, large, null);
                producer.send(new ProducerRecord<>("copied-whole", partition, "after", "after")).get();
            }
            List<Stored> stored = PartitionContents.read(cluster.bootstrapServers(), "copied-whole", partition);
            assertEquals(102, stored.size());
            assertEquals("w".repeat(200) + "99", stored.get(100).value());
            if (partition == 0) {
                assertEquals("the copied batch as it was, alone", List.of(0L, 1L, 101L),
                    stored.stream().map(Stored::batchOffset).distinct().toList());
                assertEquals(CompressionType.NONE, stored.get(1).compression());
            } else {
                assertTrue("written again, joining the batch of the record before it: " + settings.get(partition),
                    stored.get(1).batchOffset() == 0L && stored.get(100).batchOffset() == 0L);
                assertEquals(partition == 1 ? CompressionType.LZ4 : CompressionType.NONE, stored.get(1).compression());
            }
        }
    }

    @Test
    public void aBatchLargerThanARequestMayBeFailsThroughItsCallback() throws Exception {
        cluster.createTopic("copied-large", 1);
        RecordBatch batch = sourceBatch(CompressionType.NONE, "x".repeat(200), 20);
        AtomicReference<Exception> failure = new AtomicReference<>();
        try (MillraceProducer<String, String> producer = producer(Map.of("max.request.size", 1_000))) {
            try {
                producer.sendRecordBatch("copied-large", 0, batch, (metadata, e) -> failure.set(e)).get();
                fail("a " + batch.sizeInBytes() + "-byte batch went");
            } catch (ExecutionException expected) {
                assertTrue(expected.getCause() instanceof RecordTooLargeException);
            }
        }
        assertNotNull(failure.get());
        assertTrue(failure.get().getMessage(), failure.get().getMessage().contains("copied-large-0"));
    }

    @Test
    public void aTransactionalBatchOrOneWithABadCrcIsRefusedAtOnce() {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0L, 256)
            .producerState(77L, (short) 2, 0, true);
        builder.append(1_700_000_000_000L, "k".getBytes(), "v".getBytes());
        RecordBatch transactional = RecordBatch.wrap(builder.build());
        assertFalse(MillraceProducer.isCopyable(transactional));
        RecordBatch corrupt = sourceBatch(CompressionType.NONE, "v", 2);
        ByteBuffer bytes = corrupt.buffer();
        bytes.put(bytes.limit() - 2, (byte) (bytes.get(bytes.limit() - 2) ^ 1));
        assertTrue(MillraceProducer.isCopyable(corrupt));
        try (MillraceProducer<String, String> producer = producer(Map.of())) {
            try {
                producer.sendRecordBatch("anything", 0, transactional, null);
                fail("a transactional batch was taken");
            } catch (IllegalArgumentException expected) {
                // its producer id cannot be cleared
            }
            try {
                producer.sendRecordBatch("anything", 0, corrupt, null);
                fail("a corrupt batch was taken");
            } catch (CorruptRecordException expected) {
                // a new CRC would have vouched for damaged bytes
            }
        }
    }
}
