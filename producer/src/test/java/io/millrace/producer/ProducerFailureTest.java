package io.millrace.producer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.errors.TimeoutException;
import io.millrace.common.serialization.StringSerializer;
import io.millrace.producer.PartitionContents.Stored;
import io.millrace.testkit.Conditions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/** The producer when its broker goes away: bounded memory, clear timeouts, nothing acknowledged lost. */
public class ProducerFailureTest {

    private static final String TOPIC = "failures";

    private LocalCluster cluster;

    @Before
    public void startCluster() throws Exception {
        cluster = LocalCluster.start();
        cluster.createTopic(TOPIC, 2);
    }

    @After
    public void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private MillraceProducer<String, String> producer(Map<String, Object> overrides) {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", cluster.bootstrapServers());
        props.put("retry.backoff.ms", 50);
        props.put("reconnect.backoff.ms", 50);
        props.putAll(overrides);
        return new MillraceProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    @Test
    public void aFullBufferBlocksSendForMaxBlockMsThenFailsWithATimeout() throws Exception {
        MillraceProducer<String, String> producer = producer(Map.of("buffer.memory", 32 * 1024, "batch.size", 4096,
            "max.request.size", 16 * 1024, "linger.ms", 0, "max.block.ms", 500));
        try {
            producer.send(new ProducerRecord<>(TOPIC, 0, "k", "warm-up")).get();
            cluster.stopBroker(0);
            String value = "x".repeat(500);
            for (int i = 0; i < 1_000; i++) {
                long start = System.nanoTime();
                Future<RecordMetadata> future = producer.send(new ProducerRecord<>(TOPIC, i % 2, "k", value));
                long blockedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                if (future.isDone() && failure(future) != null) {
                    Throwable cause = failure(future);
                    assertTrue(cause.toString(), cause instanceof TimeoutException);
                    assertTrue(cause.getMessage(), cause.getMessage().contains("buffer.memory"));
                    assertTrue("blocked " + blockedMs + " ms", blockedMs >= 450 && blockedMs < 5_000);
                    assertTrue(((Number) producer.metrics().value("bufferpool-wait-time-total")).longValue() > 0);
                    assertTrue(i > 10);
                    return;
                }
                assertTrue("send " + i + " blocked " + blockedMs + " ms without failing", blockedMs < 450);
            }
            fail("32 KB of buffer memory never filled up");
        } finally {
            long start = System.nanoTime();
            producer.close(Duration.ofMillis(200));
            assertTrue("close gives up after its timeout", System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5));
        }
    }

    @Test
    public void aBrokerRestartLosesNothingAcknowledged() throws Exception {
        Map<Integer, List<Integer>> acked = new ConcurrentHashMap<>();
        AtomicReference<Exception> firstError = new AtomicReference<>();
        int perPhase = 2_000;
        try (MillraceProducer<String, String> producer = producer(Map.of("acks", "1", "linger.ms", 2, "batch.size", 2048,
            "max.in.flight.requests.per.connection", 1, "request.timeout.ms", 5_000, "delivery.timeout.ms", 60_000))) {
            sendRange(producer, 0, perPhase, acked, firstError);
            Conditions.waitUntil(() -> ackedCount(acked) > perPhase / 2, "some records are acknowledged");
            cluster.stopBroker(0);
            sendRange(producer, perPhase, 2 * perPhase, acked, firstError);
            cluster.startBroker(0);
            sendRange(producer, 2 * perPhase, 3 * perPhase, acked, firstError);
        }
        assertNull("every record is eventually acknowledged", firstError.get());
        assertEquals(3 * perPhase, ackedCount(acked));
        for (int partition = 0; partition < 2; partition++) {
            List<Integer> stored = firstOccurrences(PartitionContents.read(cluster.bootstrapServers(), TOPIC, partition));
            for (int i = 1; i < stored.size(); i++) {
                assertTrue("partition " + partition + ": " + stored.get(i) + " after " + stored.get(i - 1),
                    stored.get(i) > stored.get(i - 1));
            }
            assertTrue("partition " + partition + " holds every acknowledged record",
                new HashSet<>(stored).containsAll(acked.getOrDefault(partition, List.of())));
        }
    }

    @Test
    public void anIdempotentProducerStoresEveryRecordOnceAndInOrderAcrossABrokerRestart() throws Exception {
        Map<Integer, List<Integer>> acked = new ConcurrentHashMap<>();
        AtomicReference<Exception> firstError = new AtomicReference<>();
        int perPhase = 2_000;
        try (MillraceProducer<String, String> producer = producer(Map.of("enable.idempotence", true, "linger.ms", 2,
            "batch.size", 2048, "max.in.flight.requests.per.connection", 5, "request.timeout.ms", 5_000,
            "delivery.timeout.ms", 60_000))) {
            sendRange(producer, 0, perPhase, acked, firstError);
            Conditions.waitUntil(() -> ackedCount(acked) > perPhase / 2, "some records are acknowledged");
            cluster.stopBroker(0);
            sendRange(producer, perPhase, 2 * perPhase, acked, firstError);
            cluster.startBroker(0);
            sendRange(producer, 2 * perPhase, 3 * perPhase, acked, firstError);
        }
        assertNull("every record is eventually acknowledged", firstError.get());
        assertEquals(3 * perPhase, ackedCount(acked));
        for (int partition = 0; partition < 2; partition++) {
            List<Integer> expected = new ArrayList<>();
            for (int i = partition; i < 3 * perPhase; i += 2) {
                expected.add(i);
            }
            List<Integer> stored = PartitionContents.read(cluster.bootstrapServers(), TOPIC, partition).stream()
                .map(record -> Integer.parseInt(record.value())).toList();
            assertEquals("partition " + partition + ": each record once, in send order", expected, stored);
        }
    }

    private static void sendRange(Producer<String, String> producer, int from, int to, Map<Integer, List<Integer>> acked,
                                  AtomicReference<Exception> firstError) {
        for (int i = from; i < to; i++) {
            int value = i;
            producer.send(new ProducerRecord<>(TOPIC, i % 2, null, Integer.toString(i)), (metadata, e) -> {
                if (e != null) {
                    firstError.compareAndSet(null, e);
                } else {
                    acked.computeIfAbsent(metadata.partition(), p -> java.util.Collections.synchronizedList(new ArrayList<>()))
                        .add(value);
                }
            });
        }
    }

    private static int ackedCount(Map<Integer, List<Integer>> acked) {
        return acked.values().stream().mapToInt(List::size).sum();
    }

    /** A retried batch the broker had already appended shows up twice; order counts the first copy. */
    private static List<Integer> firstOccurrences(List<Stored> stored) {
        Set<Integer> seen = new HashSet<>();
        List<Integer> values = new ArrayList<>();
        for (Stored record : stored) {
            int value = Integer.parseInt(record.value());
            if (seen.add(value)) {
                values.add(value);
            }
        }
        return values;
    }

    private static Throwable failure(Future<RecordMetadata> future) throws InterruptedException {
        try {
            future.get();
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }
}
