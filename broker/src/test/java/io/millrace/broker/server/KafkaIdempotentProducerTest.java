package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;

import io.millrace.broker.log.Log;
import io.millrace.broker.log.ProducerStateEntry;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * Kafka's Java producer with enable.idempotence=true (its default) against a Millrace broker: its
 * batches carry a producer id and sequence numbers, the broker accepts them in order, and every
 * record is read back exactly once, in the order sent, at the offset its acknowledgement named.
 */
public class KafkaIdempotentProducerTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 1, Map.of());

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    static Properties idempotentProducer(Properties base) {
        Properties props = new Properties();
        props.putAll(base);
        props.put("key.serializer", ByteArraySerializer.class.getName());
        props.put("value.serializer", ByteArraySerializer.class.getName());
        props.put("enable.idempotence", "true");
        props.put("acks", "all");
        props.put("max.in.flight.requests.per.connection", "5");
        props.put("linger.ms", "2");
        props.put("batch.size", "4096");
        return props;
    }

    static ProducerRecord<byte[], byte[]> record(String topic, int partitions, int n) {
        return new ProducerRecord<>(topic, n % partitions, 1_700_000_000_000L + n, bytes("key-" + n),
            bytes("value " + n + " " + "x".repeat(n % 40)));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    public void everyRecordIsStoredOnceInOrderAndTheProducerIsKnownToEachPartition() throws Exception {
        String topic = "kafka-idempotent";
        int partitions = 3;
        int count = 3_000;
        CLUSTER.createTopic(topic, partitions, Map.of());
        Map<Integer, List<Records>> sent = new TreeMap<>();
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(idempotentProducer(CLUSTER.clientProps()))) {
            for (int n = 0; n < count; n++) {
                ProducerRecord<byte[], byte[]> record = record(topic, partitions, n);
                sent.computeIfAbsent(record.partition(), k -> new ArrayList<>()).add(Records.of(record));
                acks.add(producer.send(record));
            }
            producer.flush();
        }
        for (int n = 0; n < count; n++) {
            RecordMetadata metadata = acks.get(n).get(30, TimeUnit.SECONDS);
            assertEquals("record " + n + " is the partition's n-th", n / partitions, metadata.offset());
        }
        KafkaClientsTest.assertSameRecords(sent, Records.readAll(CLUSTER.clientProps(), topic, partitions, count));
        for (int p = 0; p < partitions; p++) {
            Log log = CLUSTER.broker(0).logManager().getLog(topic, p).orElseThrow();
            assertEquals(count / partitions, log.logEndOffset());
            List<ProducerStateEntry> producers = log.producerState().entries();
            assertEquals("one producer wrote partition " + p, 1, producers.size());
            assertEquals("its sequence numbers ran from 0, one per record", count / partitions - 1, producers.get(0).lastSeq());
        }
    }
}
