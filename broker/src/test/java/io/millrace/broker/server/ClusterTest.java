package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;

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
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Three Millrace brokers in one JVM on one ZooKeeper, against Kafka's producer and consumer. */
public class ClusterTest {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterTest.class);
    private static final int RECORDS = 20_000;
    private static final int PARTITIONS = 12;

    private final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();
    private final BrokerCluster cluster = new BrokerCluster(zookeeper, 3, Map.of());

    @Rule
    public final TestRule rules = RuleChain.outerRule(zookeeper).around(cluster);

    @Test
    public void threeBrokersServeATwelvePartitionTopicAndARestartedBrokerServesItsDataAgain() throws Exception {
        cluster.createTopic("events", PARTITIONS, Map.of());
        Map<Integer, List<Records>> sent = produce("events");

        long start = System.nanoTime();
        Map<Integer, List<Records>> read = Records.readAll(cluster.clientProps(), "events", PARTITIONS, RECORDS);
        LOG.info("Consumed {} records from 3 brokers at {} records/s", RECORDS,
            (long) (RECORDS / ((System.nanoTime() - start) / 1e9)));
        KafkaClientsTest.assertSameRecords(sent, read);

        cluster.stop(1);
        cluster.start(1);
        cluster.awaitLogs("events", PARTITIONS);
        KafkaClientsTest.assertSameRecords(sent, Records.readAll(cluster.clientProps(), "events", PARTITIONS, RECORDS));
    }

    private Map<Integer, List<Records>> produce(String topic) throws Exception {
        Properties props = cluster.clientProps();
        props.put("key.serializer", ByteArraySerializer.class.getName());
        props.put("value.serializer", ByteArraySerializer.class.getName());
        props.put("acks", "all");
        props.put("compression.type", "lz4");
        props.put("linger.ms", "5");
        Map<Integer, List<Records>> sent = new TreeMap<>();
        long start = System.nanoTime();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            List<Future<RecordMetadata>> acked = new ArrayList<>(RECORDS);
            for (int n = 0; n < RECORDS; n++) {
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, n % PARTITIONS, 1_700_000_000_000L + n,
                    utf8("key-" + n), utf8("value " + n), List.of(new RecordHeader("n", utf8(Integer.toString(n)))));
                sent.computeIfAbsent(n % PARTITIONS, k -> new ArrayList<>()).add(Records.of(record));
                acked.add(producer.send(record));
            }
            for (Future<RecordMetadata> f : acked) {
                f.get(60, TimeUnit.SECONDS);
            }
        }
        LOG.info("Produced {} records to 3 brokers at {} records/s", RECORDS,
            (long) (RECORDS / ((System.nanoTime() - start) / 1e9)));
        return sent;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
