package io.millrace.producer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.errors.TimeoutException;
import io.millrace.common.serialization.StringSerializer;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.Timeout;

/**
 * What a callback may do with its own producer. Callbacks run on the producer's one I/O thread, so
 * anything that waits for that thread must not wait there.
 */
public class ProducerCallbackTest {

    private static final String TOPIC = "callbacks";

    /** A producer that waits for itself hangs forever: fail instead. */
    @Rule
    public final Timeout timeout = Timeout.seconds(30);

    private LocalCluster cluster;
    private MillraceProducer<String, String> producer;

    @Before
    public void startCluster() throws Exception {
        cluster = LocalCluster.start();
        cluster.createTopic(TOPIC, 1);
    }

    @After
    public void stop() {
        if (producer != null) {
            producer.close();
        }
        cluster.close();
    }

    private MillraceProducer<String, String> producer(Map<String, Object> overrides) {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", cluster.bootstrapServers());
        props.putAll(overrides);
        return new MillraceProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    @Test
    public void closeFromACallbackReturnsAtOnceAndFailsWhatIsNotAcknowledged() throws Exception {
        producer = producer(Map.of("linger.ms", 0));
        producer.send(new ProducerRecord<>(TOPIC, "k", "warm-up")).get();
        CountDownLatch closed = new CountDownLatch(1);
        AtomicReference<Future<RecordMetadata>> queuedInCallback = new AtomicReference<>();
        producer.send(new ProducerRecord<>(TOPIC, "k", "first"), (metadata, error) -> {
            queuedInCallback.set(producer.send(new ProducerRecord<>(TOPIC, "k", "queued, never sent")));
            producer.close();
            closed.countDown();
        });
        assertTrue("close() from a callback did not return", closed.await(10, TimeUnit.SECONDS));
        Future<RecordMetadata> queued = queuedInCallback.get();
        assertNotNull(queued);
        try {
            queued.get(10, TimeUnit.SECONDS);
            throw new AssertionError("a record queued by the callback before close() was reported sent");
        } catch (java.util.concurrent.ExecutionException expected) {
            assertTrue(expected.getCause().getMessage(), expected.getCause().getMessage().contains("closed"));
        }
    }

    /**
     * A mirror stops its producer from the callback of a record the broker refused for good: nothing
     * queued behind that record may reach the broker, or the copy would hold later records without it.
     */
    @Test
    public void closeFromTheCallbackOfARefusedBatchSendsNothingQueuedBehindIt() throws Exception {
        cluster.createTopic("refusing", 1, Map.of("max.message.bytes", "2000"));
        producer = producer(Map.of("linger.ms", 0, "max.in.flight.requests.per.connection", 1));
        for (int round = 0; round < 5; round++) {
            CountDownLatch refused = new CountDownLatch(1);
            MillraceProducer<String, String> p = producer;
            p.send(new ProducerRecord<>("refusing", 0, "k", "x".repeat(5_000)), (metadata, error) -> {
                if (error != null) {
                    p.close(java.time.Duration.ZERO);
                    refused.countDown();
                }
            });
            for (int i = 0; i < 50; i++) {
                try {
                    p.send(new ProducerRecord<>("refusing", 0, "k", "behind-" + i));
                } catch (RuntimeException closedMeanwhile) {
                    break;
                }
            }
            assertTrue(refused.await(10, TimeUnit.SECONDS));
            producer = producer(Map.of("linger.ms", 0, "max.in.flight.requests.per.connection", 1));
        }
        org.apache.kafka.common.TopicPartition tp = new org.apache.kafka.common.TopicPartition("refusing", 0);
        try (org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]> consumer = new org.apache.kafka.clients.consumer.KafkaConsumer<>(
                Map.of("bootstrap.servers", cluster.bootstrapServers()),
                new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
            assertEquals("records queued behind a refused one reached the broker", Long.valueOf(0),
                consumer.endOffsets(java.util.List.of(tp)).get(tp));
        }
    }

    @Test
    public void flushFromACallbackIsAnErrorInsteadOfAHang() throws Exception {
        producer = producer(Map.of("linger.ms", 0));
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        CountDownLatch called = new CountDownLatch(1);
        producer.send(new ProducerRecord<>(TOPIC, "k", "v"), (metadata, error) -> {
            try {
                producer.flush();
            } catch (Throwable t) {
                thrown.set(t);
            }
            called.countDown();
        });
        assertTrue("flush() from a callback did not return", called.await(10, TimeUnit.SECONDS));
        assertTrue(String.valueOf(thrown.get()), thrown.get() instanceof IllegalStateException);
        assertTrue(thrown.get().getMessage().contains("callback"));
        producer.send(new ProducerRecord<>(TOPIC, "k", "after")).get(10, TimeUnit.SECONDS);
    }

    @Test
    public void sendFromACallbackWithMemoryExhaustedFailsAtOnceInsteadOfBlockingTheIoThread() throws Exception {
        long maxBlockMs = 5_000;
        producer = producer(Map.of("buffer.memory", 32 * 1024, "batch.size", 4096, "max.request.size", 16 * 1024,
            "linger.ms", 0, "max.block.ms", (int) maxBlockMs));
        producer.send(new ProducerRecord<>(TOPIC, "k", "warm-up")).get();
        String value = "x".repeat(3_000);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong slowestSendMs = new AtomicLong();
        CountDownLatch done = new CountDownLatch(1);
        producer.send(new ProducerRecord<>(TOPIC, "k", "first"), (metadata, error) -> {
            // The I/O thread is busy here, so nothing is sent and the batches fill buffer.memory.
            for (int i = 0; i < 100 && failure.get() == null; i++) {
                long start = System.nanoTime();
                Future<RecordMetadata> future = producer.send(new ProducerRecord<>(TOPIC, "k", value));
                slowestSendMs.accumulateAndGet(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), Math::max);
                failure.set(failureOf(future));
            }
            done.countDown();
        });
        assertTrue(done.await(60, TimeUnit.SECONDS));
        assertTrue(String.valueOf(failure.get()), failure.get() instanceof TimeoutException);
        assertTrue(failure.get().getMessage(), failure.get().getMessage().contains("buffer.memory"));
        assertTrue("a send on the I/O thread blocked " + slowestSendMs.get() + " ms", slowestSendMs.get() < maxBlockMs / 2);
        producer.flush();
        assertNull(failureOf(producer.send(new ProducerRecord<>(TOPIC, "k", "after"))));
    }

    private static Throwable failureOf(Future<RecordMetadata> future) {
        if (!future.isDone()) {
            return null;
        }
        try {
            future.get();
            return null;
        } catch (java.util.concurrent.ExecutionException e) {
            return e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return e;
        }
    }
}
