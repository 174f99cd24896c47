package io.millrace.producer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.errors.RecordTooLargeException;
import io.millrace.common.record.CompressionType;
import io.millrace.common.serialization.SerializationException;
import io.millrace.common.serialization.Serializer;
import io.millrace.common.serialization.StringSerializer;
import io.millrace.producer.PartitionContents.Stored;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/** The producer against one real broker: what it sends is what the partition holds. */
public class ProducerTest {

    private static LocalCluster cluster;
    private static final AtomicInteger TOPICS = new AtomicInteger();

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

    private static String newTopic(int partitions) throws InterruptedException {
        String topic = "producer-test-" + TOPICS.incrementAndGet();
        cluster.createTopic(topic, partitions);
        return topic;
    }

    private static MillraceProducer<String, String> producer(Map<String, Object> overrides) {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", cluster.bootstrapServers());
        props.put("linger.ms", 5);
        props.putAll(overrides);
        return new MillraceProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    @Test
    public void recordsOfAKeyKeepTheirOrderInTheirPartition() throws Exception {
        String topic = newTopic(3);
        List<Future<RecordMetadata>> futures = new ArrayList<>();
        try (MillraceProducer<String, String> producer = producer(Map.of("batch.size", 512))) {
            for (int i = 0; i < 3_000; i++) {
                futures.add(producer.send(new ProducerRecord<>(topic, "key-" + (i % 10), Integer.toString(i))));
            }
        }
        int total = 0;
        for (int p = 0; p < 3; p++) {
            Map<String, Integer> lastOfKey = new HashMap<>();
            List<Stored> stored = PartitionContents.read(cluster.bootstrapServers(), topic, p);
            total += stored.size();
            for (Stored record : stored) {
                int value = Integer.parseInt(record.value());
                Integer previous = lastOfKey.put(record.key(), value);
                assertTrue(record.key() + ": " + value + " after " + previous, previous == null || previous < value);
                assertEquals(DefaultPartitioner.partitionForKey(record.key().getBytes(), 3), p);
            }
        }
        assertEquals(3_000, total);
        for (int i = 0; i < futures.size(); i++) {
            RecordMetadata metadata = futures.get(i).get();
            assertEquals(DefaultPartitioner.partitionForKey(("key-" + (i % 10)).getBytes(), 3), metadata.partition());
            assertTrue(metadata.hasOffset());
        }
    }

    @Test
    public void closeDeliversEverythingBuffered() throws Exception {
        String topic = newTopic(2);
        MillraceProducer<String, String> producer = producer(Map.of("linger.ms", 600_000, "batch.size", 1_000_000));
        List<Future<RecordMetadata>> futures = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            futures.add(producer.send(new ProducerRecord<>(topic, null, "v" + i)));
        }
        assertFalse("linger keeps the batch back", futures.get(0).isDone());
        producer.close();
        for (Future<RecordMetadata> future : futures) {
            assertTrue(future.isDone());
            future.get();
        }
        int stored = PartitionContents.read(cluster.bootstrapServers(), topic, 0).size()
            + PartitionContents.read(cluster.bootstrapServers(), topic, 1).size();
        assertEquals(500, stored);
    }

    @Test
    public void flushReturnsOnlyAfterEveryCallbackHasRun() throws Exception {
        String topic = newTopic(2);
        try (MillraceProducer<String, String> producer = producer(Map.of("batch.size", 2_000, "linger.ms", 100))) {
            for (int round = 0; round < 5; round++) {
                java.util.concurrent.atomic.AtomicInteger callbacks = new java.util.concurrent.atomic.AtomicInteger();
                for (int i = 0; i < 2_000; i++) {
                    producer.send(new ProducerRecord<>(topic, "v" + i), (md, e) -> {
                        Thread.yield(); // a callback that takes a moment must still be waited for
                        callbacks.incrementAndGet();
                    });
                }
                producer.flush();
                assertEquals("callbacks run before flush returned, round " + round, 2_000, callbacks.get());
            }
        }
    }

    @Test
    public void flushSendsWithoutWaitingForLinger() throws Exception {
        String topic = newTopic(1);
        try (MillraceProducer<String, String> producer = producer(Map.of("linger.ms", 600_000))) {
            Future<RecordMetadata> future = producer.send(new ProducerRecord<>(topic, "k", "v"));
            producer.flush();
            assertTrue(future.isDone());
            assertEquals(0L, future.get().offset());
        }
    }

    @Test
    public void acksZeroSendsWithoutOffsets() throws Exception {
        String topic = newTopic(1);
        List<Future<RecordMetadata>> futures = new ArrayList<>();
        try (MillraceProducer<String, String> producer = producer(Map.of("acks", "0"))) {
            for (int i = 0; i < 100; i++) {
                futures.add(producer.send(new ProducerRecord<>(topic, "k", "v" + i)));
            }
        }
        for (Future<RecordMetadata> future : futures) {
            assertEquals(RecordMetadata.UNKNOWN_OFFSET, future.get().offset());
        }
        List<Stored> stored = PartitionContents.read(cluster.bootstrapServers(), topic, 0);
        assertEquals(100, stored.size());
        assertEquals("v99", stored.get(99).value());
    }

    @Test
    public void everyCompressionTypeRoundTrips() throws Exception {
        for (CompressionType type : CompressionType.values()) {
            String topic = newTopic(1);
            try (MillraceProducer<String, String> producer = producer(Map.of("compression.type", type.configName))) {
                for (int i = 0; i < 200; i++) {
                    producer.send(new ProducerRecord<>(topic, "key-" + i, "a fairly repetitive value " + i));
                }
            }
            List<Stored> stored = PartitionContents.read(cluster.bootstrapServers(), topic, 0);
            assertEquals(type.configName, 200, stored.size());
            for (int i = 0; i < 200; i++) {
                assertEquals("key-" + i, stored.get(i).key());
                assertEquals("a fairly repetitive value " + i, stored.get(i).value());
                assertEquals(type, stored.get(i).compression());
            }
        }
    }

    @Test
    public void aSerializerErrorFailsThatSendOnly() throws Exception {
        String topic = newTopic(1);
        StringSerializer strings = new StringSerializer();
        Serializer<String> picky = (t, data) -> {
            if ("bad".equals(data)) {
                throw new IllegalArgumentException("cannot serialize 'bad'");
            }
            return strings.serialize(t, data);
        };
        Map<String, Object> props = Map.of("bootstrap.servers", cluster.bootstrapServers(), "linger.ms", 5);
        try (MillraceProducer<String, String> producer = new MillraceProducer<>(props, new StringSerializer(), picky)) {
            Future<RecordMetadata> before = producer.send(new ProducerRecord<>(topic, "k", "good-1"));
            try {
                producer.send(new ProducerRecord<>(topic, "k", "bad"));
                fail("expected a SerializationException");
            } catch (SerializationException e) {
                assertTrue(e.getMessage(), e.getMessage().contains(topic));
            }
            Future<RecordMetadata> after = producer.send(new ProducerRecord<>(topic, "k", "good-2"));
            assertEquals(0L, before.get().offset());
            assertEquals(1L, after.get().offset());
            assertEquals(1L, ((Number) producer.metrics().value("record-error-total")).longValue());
        }
    }

    @Test
    public void aRecordLargerThanMaxRequestSizeFailsClearlyWithoutDisturbingOthers() throws Exception {
        String topic = newTopic(1);
        try (MillraceProducer<String, String> producer = producer(Map.of("max.request.size", 10_000))) {
            Future<RecordMetadata> small = producer.send(new ProducerRecord<>(topic, "k", "small"));
            Exception[] seen = new Exception[1];
            Future<RecordMetadata> large = producer.send(new ProducerRecord<>(topic, "k", "x".repeat(20_000)),
                (m, e) -> seen[0] = e);
            Future<RecordMetadata> next = producer.send(new ProducerRecord<>(topic, "k", "next"));
            try {
                large.get();
                fail("expected RecordTooLargeException");
            } catch (ExecutionException e) {
                assertTrue(e.getCause() instanceof RecordTooLargeException);
                assertTrue(e.getCause().getMessage(), e.getCause().getMessage().contains("max.request.size"));
            }
            assertTrue(seen[0] instanceof RecordTooLargeException);
            assertEquals(0L, small.get().offset());
            assertEquals(1L, next.get().offset());
        }
    }

    @Test
    public void aFirstBatchRefusedAsTooLargeFailsAloneAndTheRecordsBehindItAreStoredOnce() throws Exception {
        String topic = "producer-test-" + TOPICS.incrementAndGet();
        cluster.createTopic(topic, 1, Map.of("max.message.bytes", "1000"));
        List<Future<RecordMetadata>> behind = new ArrayList<>();
        Future<RecordMetadata> large;
        try (MillraceProducer<String, String> producer = producer(Map.of("linger.ms", 0, "batch.size", 200))) {
            // The broker refuses the first batch of this producer while the ones behind it are in flight, and may
            // take those from a producer it does not know yet at whatever sequence they carry.
            large = producer.send(new ProducerRecord<>(topic, "k", "x".repeat(1_500)));
            for (int i = 0; i < 200; i++) {
                behind.add(producer.send(new ProducerRecord<>(topic, "k", "v" + i)));
            }
            producer.flush();
        }
        try {
            large.get(30, TimeUnit.SECONDS);
            fail("expected RecordTooLargeException");
        } catch (ExecutionException e) {
            assertTrue(e.getCause().toString(), e.getCause() instanceof RecordTooLargeException);
            assertTrue(e.getCause().getMessage(), e.getCause().getMessage().contains("max.message.bytes"));
        }
        List<String> values = new ArrayList<>();
        for (Stored stored : PartitionContents.read(cluster.bootstrapServers(), topic, 0)) {
            values.add(stored.value());
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            expected.add("v" + i);
            assertEquals(i, behind.get(i).get(30, TimeUnit.SECONDS).offset());
        }
        assertEquals(expected, values);
    }

    @Test
    public void callbacksRunOncePerRecordWithTheirOffsets() throws Exception {
        String topic = newTopic(1);
        int n = 1_000;
        long[] offsets = new long[n];
        AtomicInteger calls = new AtomicInteger();
        try (MillraceProducer<String, String> producer = producer(Map.of("batch.size", 2_048))) {
            for (int i = 0; i < n; i++) {
                int index = i;
                producer.send(new ProducerRecord<>(topic, null, "v" + i), (metadata, e) -> {
                    assertNull(e);
                    offsets[index] = metadata.offset();
                    calls.incrementAndGet();
                });
            }
        }
        assertEquals(n, calls.get());
        for (int i = 0; i < n; i++) {
            assertEquals(i, offsets[i]);
        }
    }

    @Test
    public void metricsAreExportedOverJmxUnderTheClientId() throws Exception {
        String topic = newTopic(1);
        try (MillraceProducer<String, String> producer = producer(Map.of("client.id", "metrics-check"))) {
            for (int i = 0; i < 50; i++) {
                producer.send(new ProducerRecord<>(topic, "k", "v"));
            }
            producer.flush();
            javax.management.ObjectName name =
                new javax.management.ObjectName("io.millrace.producer:type=producer-metrics,client-id=metrics-check");
            var server = ManagementFactory.getPlatformMBeanServer();
            assertEquals(50L, server.getAttribute(name, "record-send-total"));
            assertTrue((Double) server.getAttribute(name, "batch-size-avg") > 0);
            assertTrue((Double) server.getAttribute(name, "request-latency-max") > 0);
            double recordsPerRequest = (Double) server.getAttribute(name, "records-per-request-avg");
            assertTrue("records per request " + recordsPerRequest, recordsPerRequest >= 1 && recordsPerRequest <= 50);
            assertNotNull(server.getAttribute(name, "record-queue-time-avg"));
            assertEquals(32L * 1024 * 1024, server.getAttribute(name, "buffer-available-bytes"));
            assertNotNull(server.getAttribute(name, "bufferpool-wait-time-total"));
            assertTrue((Double) server.getAttribute(name, "record-send-rate") > 0);
        }
    }

    @Test
    public void anUnknownTopicFailsAfterMaxBlockMs() throws Exception {
        try (MillraceProducer<String, String> producer = producer(Map.of("max.block.ms", 300))) {
            long start = System.nanoTime();
            Future<RecordMetadata> future = producer.send(new ProducerRecord<>("no-such-topic", "k", "v"));
            long blockedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            try {
                future.get();
                fail("expected a timeout");
            } catch (ExecutionException e) {
                assertTrue(e.getCause() instanceof io.millrace.common.errors.TimeoutException);
                assertTrue(e.getCause().getMessage(), e.getCause().getMessage().contains("no-such-topic"));
            }
            assertTrue("blocked " + blockedMs + " ms", blockedMs >= 250 && blockedMs < 5_000);
        }
    }
}
