package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;

import io.millrace.testkit.Conditions;
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

/**
 * Three Millrace brokers in one JVM on one ZooKeeper, against Kafka's producer and consumer: a
 * twelve-partition topic written with every compression type and acks setting, read back equal,
 * and read back equal again after one broker restarts.
 */
public class ClusterTest {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterTest.class);
    private static final int RECORDS = 200_000;
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

    /**
     * {@link #RECORDS} records in 15 producer runs, one per compression type and acks setting, one
     * after the other so that each partition's order is known. Keys, headers and values vary.
     */
    private Map<Integer, List<Records>> produce(String topic) throws Exception {
        Map<Integer, List<Records>> sent = new TreeMap<>();
        List<String> codecs = List.of("none", "gzip", "snappy", "lz4", "zstd");
        List<String> acksSettings = List.of("0", "1", "all");
        int perRun = RECORDS / (codecs.size() * acksSettings.size());
        long start = System.nanoTime();
        int base = 0;
        for (String compression : codecs) {
            for (String acks : acksSettings) {
                int count = base + perRun * 2 > RECORDS ? RECORDS - base : perRun;
                produce(topic, compression, acks, base, count, sent);
                base += count;
            }
        }
        LOG.info("Produced {} records to 3 brokers at {} records/s", RECORDS,
            (long) (RECORDS / ((System.nanoTime() - start) / 1e9)));
        return sent;
    }

    private void produce(String topic, String compression, String acks, int base, int count,
                         Map<Integer, List<Records>> sent) throws Exception {
        Properties props = cluster.clientProps();
        props.put("key.serializer", ByteArraySerializer.class.getName());
        props.put("value.serializer", ByteArraySerializer.class.getName());
        props.put("acks", acks);
        props.put("compression.type", compression);
        props.put("linger.ms", "5");
        if (!acks.equals("all")) {
            props.put("enable.idempotence", "false");
            props.put("max.in.flight.requests.per.connection", "1");
        }
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            List<Future<RecordMetadata>> acked = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                int n = base + i;
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, n % PARTITIONS, 1_700_000_000_000L + n,
                    n % 7 == 0 ? null : utf8("key-" + n), utf8(compression + "/" + acks + " value " + n + " " + "x".repeat(n % 40)),
                    List.of(new RecordHeader("n", utf8(Integer.toString(n))), new RecordHeader("codec", utf8(compression))));
                sent.computeIfAbsent(n % PARTITIONS, k -> new ArrayList<>()).add(Records.of(record));
                acked.add(producer.send(record));
            }
            for (Future<RecordMetadata> f : acked) {
                f.get(60, TimeUnit.SECONDS);
            }
        }
        // acks=0 sends are not answered: wait until the brokers appended them before the next run,
        // whose records would otherwise race them into the same partitions.
        Conditions.waitUntil(() -> appended(topic) == base + count, 30_000,
            compression + "/acks=" + acks + " records to be appended");
    }

    private long appended(String topic) {
        long total = 0;
        for (int p = 0; p < PARTITIONS; p++) {
            int leader = cluster.broker(0).cluster().metadata().snapshot().leader(topic, p);
            total += cluster.broker(leader).logManager().getLog(topic, p).map(log -> log.logEndOffset()).orElse(0L);
        }
        return total;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
