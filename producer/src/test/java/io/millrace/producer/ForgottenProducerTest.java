package io.millrace.producer;

import static org.junit.Assert.assertEquals;

import io.millrace.broker.log.Log;
import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.serialization.StringSerializer;
import io.millrace.producer.PartitionContents.Batch;
import io.millrace.producer.PartitionContents.Stored;
import io.millrace.testkit.Conditions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * A partition forgets an idle idempotent producer after {@code producer.id.expiration.ms}. While its
 * log holds every record from offset 0 the broker then refuses the producer's next sequence as out
 * of order (it would take only sequence 0 from a producer it does not know): Millrace's producer and
 * Kafka's each raise their epoch, start again at sequence 0, and every record is stored once, in order.
 */
public class ForgottenProducerTest {

    private static final AtomicInteger TOPICS = new AtomicInteger();
    private static LocalCluster cluster;

    @BeforeClass
    public static void startCluster() throws Exception {
        cluster = LocalCluster.start(1, Map.of("producer.id.expiration.ms", 200L, "log.retention.check.interval.ms", 50L));
    }

    @AfterClass
    public static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static String newTopic() throws InterruptedException {
        String topic = "forgotten-" + TOPICS.incrementAndGet();
        cluster.createTopic(topic, 1);
        return topic;
    }

    private static Log log(String topic) {
        return cluster.broker(0).logManager().getLog(topic, 0).orElseThrow();
    }

    private static void awaitForgotten(String topic) {
        Conditions.waitUntil(() -> log(topic).producerState().producerCount() == 0,
            "the partition to forget the idle producer");
    }

    /** The stored values, and that the second half came under the next epoch from sequence 0. */
    private static void assertStoredOnceAfterAnEpochBump(String topic, int half) throws Exception {
        List<String> values = PartitionContents.read(cluster.bootstrapServers(), topic, 0).stream().map(Stored::value).toList();
        List<String> expected = new ArrayList<>();
        for (int n = 0; n < 2 * half; n++) {
            expected.add("value " + n);
        }
        assertEquals(expected, values);
        List<Batch> batches = PartitionContents.batches(cluster.bootstrapServers(), topic, 0);
        Batch first = batches.get(0);
        // each record was sent on its own, after the one before it was acknowledged
        Batch afterwards = batches.stream().filter(b -> b.baseOffset() == half).findFirst().orElseThrow();
        assertEquals(first.toString(), 0, first.baseSequence());
        assertEquals("one producer id throughout", first.producerId(), afterwards.producerId());
        assertEquals("the epoch raised once: " + batches, first.producerEpoch() + 1, (int) afterwards.producerEpoch());
        assertEquals("the new epoch starts at sequence 0: " + batches, 0, afterwards.baseSequence());
    }

    @Test
    public void millraceProducerRaisesItsEpochAndGoesOn() throws Exception {
        String topic = newTopic();
        int half = 5;
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", cluster.bootstrapServers());
        props.put("linger.ms", 0);
        props.put("retry.backoff.ms", 20);
        try (MillraceProducer<String, String> producer =
                 new MillraceProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int n = 0; n < half; n++) {
                producer.send(new ProducerRecord<>(topic, 0, "k", "value " + n)).get(30, TimeUnit.SECONDS);
            }
            awaitForgotten(topic);
            // one record a batch, one at a time, so that the refused one is the whole second half's first
            producer.send(new ProducerRecord<>(topic, 0, "k", "value " + half)).get(30, TimeUnit.SECONDS);
            for (int n = half + 1; n < 2 * half; n++) {
                producer.send(new ProducerRecord<>(topic, 0, "k", "value " + n)).get(30, TimeUnit.SECONDS);
            }
        }
        assertStoredOnceAfterAnEpochBump(topic, half);
    }

    @Test
    public void kafkasProducerRaisesItsEpochAndGoesOn() throws Exception {
        String topic = newTopic();
        int half = 5;
        Properties props = new Properties();
        props.put("bootstrap.servers", cluster.bootstrapServers());
        props.put("key.serializer", org.apache.kafka.common.serialization.StringSerializer.class.getName());
        props.put("value.serializer", org.apache.kafka.common.serialization.StringSerializer.class.getName());
        props.put("enable.idempotence", "true");
        props.put("acks", "all");
        props.put("retry.backoff.ms", "20");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
            for (int n = 0; n < half; n++) {
                producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(topic, 0, "k", "value " + n))
                    .get(30, TimeUnit.SECONDS);
            }
            awaitForgotten(topic);
            for (int n = half; n < 2 * half; n++) {
                producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(topic, 0, "k", "value " + n))
                    .get(30, TimeUnit.SECONDS);
            }
        }
        assertStoredOnceAfterAnEpochBump(topic, half);
    }
}
