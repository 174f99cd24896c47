package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.log.Log;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import javax.management.ObjectName;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * A compacted topic through Kafka's own Java clients: a consumer reading from the start after the
 * cleaner ran gets each key's last value at its offset, across the gaps and empty batches the
 * cleaner leaves, and a record without a key is refused with INVALID_RECORD.
 */
public class CompactedTopicTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    // The cleaner's thread stays off so that the test decides when a pass runs.
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 1, Map.of("log.cleaner.enable", false));

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    private static KafkaProducer<String, String> producer() {
        Properties props = CLUSTER.clientProps();
        props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    @Test
    public void aKafkaConsumerReadsEachKeysLastValueAfterCleaning() throws Exception {
        String topic = "table";
        CLUSTER.createTopic(topic, 1, Map.of("cleanup.policy", "compact", "segment.bytes", "2048"));
        Map<String, Long> lastOffset = new HashMap<>();
        Map<String, String> lastValue = new HashMap<>();
        try (KafkaProducer<String, String> producer = producer()) {
            for (int round = 0; round < 30; round++) {
                for (int k = 0; k < 8; k++) {
                    String key = "k" + k;
                    String value = round == 29 && k == 3 ? null : key + "-" + round;
                    long offset = producer.send(new ProducerRecord<>(topic, key, value)).get(30, TimeUnit.SECONDS).offset();
                    lastOffset.put(key, offset);
                    lastValue.put(key, value);
                }
            }
        }
        Log log = CLUSTER.broker(0).logManager().getLog(topic, 0).orElseThrow();
        long end = log.logEndOffset();
        log.roll();
        long before = log.size();
        assertEquals(1, CLUSTER.broker(0).logManager().cleanCompactedLogs());
        assertTrue("the log shrank: " + log.size() + " of " + before, log.size() < before / 4);
        Object removed = ManagementFactory.getPlatformMBeanServer().getAttribute(
            new ObjectName("io.millrace:type=log-cleaner-metrics,broker=0"), "records-removed-total");
        assertTrue("removed " + removed, (Long) removed >= 30 * 8 - 8);

        Map<String, ConsumerRecord<String, String>> read = readAll(topic, end);
        assertEquals(lastOffset.keySet(), read.keySet());
        for (Map.Entry<String, ConsumerRecord<String, String>> e : read.entrySet()) {
            assertEquals(e.getKey(), (long) lastOffset.get(e.getKey()), e.getValue().offset());
            assertEquals("a tombstone stays for delete.retention.ms", lastValue.get(e.getKey()), e.getValue().value());
        }
    }

    /** Every record from the start up to {@code end}, by key; a key seen twice fails. */
    private static Map<String, ConsumerRecord<String, String>> readAll(String topic, long end) {
        Properties props = CLUSTER.clientProps();
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 3);
        Map<String, ConsumerRecord<String, String>> read = new HashMap<>();
        TopicPartition tp = new TopicPartition(topic, 0);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
            new StringDeserializer())) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long deadline = System.currentTimeMillis() + 30_000;
            while (consumer.position(tp) < end && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    ConsumerRecord<String, String> earlier = read.put(record.key(), record);
                    assertEquals("key " + record.key() + " read twice", null, earlier);
                }
            }
            assertEquals("the consumer reached the end across the gaps", end, consumer.position(tp));
        }
        return read;
    }

    @Test
    public void aRecordWithoutAKeyIsRefused() throws Exception {
        String topic = "keyed-only";
        CLUSTER.createTopic(topic, 1, Map.of("cleanup.policy", "compact"));
        try (KafkaProducer<String, String> producer = producer()) {
            ExecutionException refused = assertThrows(ExecutionException.class,
                () -> producer.send(new ProducerRecord<>(topic, null, "v")).get(30, TimeUnit.SECONDS));
            assertEquals(InvalidRecordException.class, refused.getCause().getClass());
            assertEquals("nothing of the refused batch was written", 0,
                producer.send(new ProducerRecord<>(topic, "k", "v")).get(30, TimeUnit.SECONDS).offset());
        }
    }
}
