package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;

import io.millrace.testkit.Conditions;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Records "r-0", "r-1", ... spread over a topic's partitions, and the checks on what a group's
 * members read of them, counted by value in a map the members share.
 */
final class GroupReads {

    private GroupReads() {
    }

    /** Sends records {@code from} to {@code from + count - 1}, record i to partition i modulo {@code partitions}. */
    static void produce(Properties clientProps, String topic, int partitions, int from, int count) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(clientProps, new ByteArraySerializer(),
            new ByteArraySerializer())) {
            for (int i = from; i < from + count; i++) {
                producer.send(new ProducerRecord<>(topic, i % partitions, null, ("r-" + i).getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }
    }

    static void awaitReads(Map<String, AtomicInteger> reads, int total) {
        Conditions.waitUntil(() -> reads.size() >= total, 60_000, total + " distinct records read");
    }

    static void assertEachReadOnce(Map<String, AtomicInteger> reads, int total) {
        assertEquals(total, reads.size());
        for (int i = 0; i < total; i++) {
            AtomicInteger n = reads.get("r-" + i);
            assertEquals("r-" + i, 1, n == null ? 0 : n.get());
        }
    }
}
