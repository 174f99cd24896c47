package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.log.ProducerStateManager;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.TcpProxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.junit.After;
import org.junit.Before;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TestRule;

/**
 * Kafka's idempotent producer reaches the broker through a {@link TcpProxy} that loses the broker's
 * answers to requests already appended: the producer sends those batches again with the same
 * sequence numbers, and the broker must answer them with their original offsets rather than append
 * them twice. Every record is read back exactly once, in order, where its acknowledgement said.
 * A first batch refused on the way (damaged in the proxy) while the batches behind it are in flight
 * goes in first when sent again.
 */
public class KafkaIdempotentProducerProxyTest {

    private static final ProxiedBroker BROKER = new ProxiedBroker();
    private static final TcpProxy PROXY = BROKER.proxy();
    private static final BrokerCluster CLUSTER = BROKER.cluster();

    @ClassRule
    public static final TestRule RULES = BROKER.rules();

    private final DuplicateAppendCounter duplicateCounter = new DuplicateAppendCounter();

    @Before
    public void countDuplicates() {
        Logger logger = Logger.getLogger(ProducerStateManager.class);
        logger.setLevel(Level.DEBUG);
        logger.addAppender(duplicateCounter);
    }

    @After
    public void stopCounting() {
        Logger.getLogger(ProducerStateManager.class).removeAppender(duplicateCounter);
    }

    @Test
    public void answersLostOnTheWayAreResentAndStoredOnce() throws Exception {
        String topic = "idempotent-through-proxy";
        int partitions = 2;
        int rounds = 3;
        int perRound = 1_000;
        CLUSTER.createTopic(topic, partitions, Map.of());
        Properties props = KafkaIdempotentProducerTest.idempotentProducer(CLUSTER.clientProps());
        props.put("bootstrap.servers", PROXY.connectString());
        props.put("reconnect.backoff.ms", "20");
        props.put("retry.backoff.ms", "20");
        Map<Integer, List<Records>> sent = new TreeMap<>();
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        List<Exception> failures = new CopyOnWriteArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            for (int round = 0; round < rounds; round++) {
                for (int i = 0; i < perRound; i++) {
                    ProducerRecord<byte[], byte[]> record = KafkaIdempotentProducerTest.record(topic, partitions, acks.size());
                    sent.computeIfAbsent(record.partition(), k -> new ArrayList<>()).add(Records.of(record));
                    acks.add(producer.send(record, (metadata, error) -> {
                        if (error != null) {
                            failures.add(error);
                        }
                    }));
                    if (i == perRound / 2) {
                        // Mid-stream, when the answers on the wire are Produce answers.
                        PROXY.dropNextReply();
                    }
                }
                producer.flush();
                int dropped = round + 1;
                Conditions.waitUntil(() -> PROXY.repliesDropped() >= dropped, "an answer to be lost");
            }
        }
        assertEquals("no send failed", List.of(), failures);
        for (int n = 0; n < acks.size(); n++) {
            assertEquals("record " + n + "'s offset", n / partitions, acks.get(n).get(30, TimeUnit.SECONDS).offset());
        }
        KafkaClientsTest.assertSameRecords(sent, Records.readAll(CLUSTER.clientProps(), topic, partitions, acks.size()));
        assertTrue("a lost answer's batch came back and was answered as a duplicate", duplicateCounter.count() >= 1);
    }

    @Test
    public void aNewProducersFirstBatchRefusedWithTheNextInFlightIsStoredFirst() throws Exception {
        String topic = "idempotent-first-batch-refused";
        int count = 2_000;
        CLUSTER.createTopic(topic, 1, Map.of());
        Properties props = KafkaIdempotentProducerTest.idempotentProducer(CLUSTER.clientProps());
        props.put("bootstrap.servers", PROXY.connectString());
        props.put("retry.backoff.ms", "20");
        props.put("request.timeout.ms", "10000");
        props.put("delivery.timeout.ms", "20000");
        Map<Integer, List<Records>> sent = new TreeMap<>();
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        int corruptedBefore = PROXY.producesCorrupted();
        PROXY.corruptNextProduceBatch(topic);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            // Every batch is ready before the producer has its id, so five requests leave back to back: the
            // first (sequence 0) fails its CRC, and the partition, not knowing the producer, must refuse the
            // four behind it too, or they would be stored first and sequence 0 would be out of order for good.
            for (int n = 0; n < count; n++) {
                ProducerRecord<byte[], byte[]> record = KafkaIdempotentProducerTest.record(topic, 1, n);
                sent.computeIfAbsent(0, k -> new ArrayList<>()).add(Records.of(record));
                acks.add(producer.send(record));
            }
            producer.flush();
            for (int n = 0; n < count; n++) {
                assertEquals("record " + n + "'s offset", n, acks.get(n).get(30, TimeUnit.SECONDS).offset());
            }
        }
        assertEquals("one Produce request was damaged", corruptedBefore + 1, PROXY.producesCorrupted());
        KafkaClientsTest.assertSameRecords(sent, Records.readAll(CLUSTER.clientProps(), topic, 1, count));
    }
}
