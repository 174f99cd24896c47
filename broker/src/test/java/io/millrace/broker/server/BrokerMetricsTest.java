package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.log.Log;
import io.millrace.broker.log.LogConfig;
import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.FetchRequest;
import io.millrace.common.protocol.message.FetchResponse;
import io.millrace.common.protocol.message.ProduceRequest;
import io.millrace.common.protocol.message.ProduceResponse;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/** The broker's traffic, long-poll, flush and log metrics, read through the platform MBean server. */
public class BrokerMetricsTest {

    private static final short PRODUCE_V = 9;
    private static final short FETCH_V = 12;
    private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();
    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 1, Map.of(
        LogConfig.LOG_FLUSH_INTERVAL_MESSAGES_CONFIG, 1L));

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    @Test
    public void bytesAndMessagesInPerTopicMatchWhatTheProducerSentAndTheLogsHold() throws Exception {
        CLUSTER.createTopic("metered", 2, Map.of());
        CLUSTER.createTopic("other", 1, Map.of());
        long allBytesBefore = (Long) JMX.getAttribute(name("broker-topic-metrics", ""), "bytes-in-total");
        int records = 500;
        Properties props = CLUSTER.clientProps();
        props.put("key.serializer", ByteArraySerializer.class.getName());
        props.put("value.serializer", ByteArraySerializer.class.getName());
        props.put("acks", "all");
        props.put("linger.ms", "5");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            List<Future<RecordMetadata>> acked = new ArrayList<>();
            for (int n = 0; n < records; n++) {
                acked.add(producer.send(new ProducerRecord<>("metered", n % 2, utf8("k" + n), utf8("value " + n))));
            }
            acked.add(producer.send(new ProducerRecord<>("other", 0, null, utf8("elsewhere"))));
            for (Future<RecordMetadata> f : acked) {
                f.get(30, TimeUnit.SECONDS);
            }
        }
        Log p0 = log("metered", 0);
        Log p1 = log("metered", 1);
        Log other = log("other", 0);
        ObjectName metered = name("broker-topic-metrics", ",topic=metered");
        assertEquals((long) records, JMX.getAttribute(metered, "messages-in-total"));
        assertEquals(p0.size() + p1.size(), JMX.getAttribute(metered, "bytes-in-total"));
        assertEquals(1L, JMX.getAttribute(name("broker-topic-metrics", ",topic=other"), "messages-in-total"));
        assertEquals(allBytesBefore + p0.size() + p1.size() + other.size(),
            JMX.getAttribute(name("broker-topic-metrics", ""), "bytes-in-total"));
        for (int p = 0; p < 2; p++) {
            ObjectName partition = name("log", ",topic=metered,partition=" + p);
            Log log = log("metered", p);
            assertTrue(log.size() > 0);
            assertEquals(log.size(), JMX.getAttribute(partition, "size"));
            assertEquals(log.logEndOffset(), JMX.getAttribute(partition, "log-end-offset"));
            assertEquals(1L, JMX.getAttribute(partition, "num-log-segments"));
        }

        long bytesOutBefore = (Long) JMX.getAttribute(metered, "bytes-out-total");
        List<FetchResponse.PartitionData> fetched = fetch("metered", 0, 0, 1 << 20, 0, 0);
        assertEquals(p0.size(), fetched.get(0).records().sizeInBytes());
        assertEquals(bytesOutBefore + p0.size(), JMX.getAttribute(metered, "bytes-out-total"));
    }

    @Test
    public void aLongPollAnsweredByAnAppendCountsAsAWakeUpAndOneWithoutDataAsExpired() throws Exception {
        CLUSTER.createTopic("long-poll", 1, Map.of());
        ObjectName purgatory = name("delayed-fetch-metrics", "");
        long wokenBefore = (Long) JMX.getAttribute(purgatory, "completed-by-append-total");
        long expiredBefore = (Long) JMX.getAttribute(purgatory, "expired-total");
        try (RawClient poller = new RawClient(CLUSTER.broker(0).boundPort())) {
            poller.send(fetchRequest("long-poll", 0, 0, 1 << 20, 10_000, 1), FETCH_V);
            Conditions.waitUntil(() -> CLUSTER.broker(0).purgatory().size() == 1, "the fetch to wait");
            assertEquals(1L, JMX.getAttribute(purgatory, "purgatory-size"));
            assertEquals(Errors.NONE, produce("long-poll", 0, batch(3)));
            FetchResponse response = (FetchResponse) poller.receive(ApiKey.FETCH, FETCH_V);
            assertEquals(3L, response.responses().get(0).partitions().get(0).highWatermark());
        }
        assertEquals(wokenBefore + 1, JMX.getAttribute(purgatory, "completed-by-append-total"));
        assertEquals(expiredBefore, JMX.getAttribute(purgatory, "expired-total"));

        List<FetchResponse.PartitionData> nothing = fetch("long-poll", 0, 3, 1 << 20, 50, 1);
        assertEquals(0, nothing.get(0).records().sizeInBytes());
        assertEquals(expiredBefore + 1, JMX.getAttribute(purgatory, "expired-total"));
        assertEquals(wokenBefore + 1, JMX.getAttribute(purgatory, "completed-by-append-total"));
        assertEquals(0L, JMX.getAttribute(purgatory, "purgatory-size"));
    }

    @Test
    public void everyAppendIsFsyncedAndTimedWhenTheFlushIntervalIsOneMessage() throws Exception {
        CLUSTER.createTopic("flushed", 1, Map.of());
        ObjectName flushStats = name("log-flush-stats", "");
        Log log = log("flushed", 0);
        long before = (Long) JMX.getAttribute(flushStats, "log-flush-total");
        for (int i = 0; i < 3; i++) {
            assertEquals(Errors.NONE, produce("flushed", 0, batch(1)));
            long offset = log.logEndOffset() - 1;
            log.awaitFlushed(offset).get(10, TimeUnit.SECONDS);
        }
        long after = (Long) JMX.getAttribute(flushStats, "log-flush-total");
        assertTrue("fsyncs counted: " + before + " -> " + after, after >= before + 3);
        assertTrue((Double) JMX.getAttribute(flushStats, "log-flush-time-ms-max") > 0.0);
        assertTrue((Double) JMX.getAttribute(flushStats, "log-flush-time-ms-avg") > 0.0);
    }

    @Test
    public void perApiQueueTimeIsRecorded() throws Exception {
        CLUSTER.createTopic("queued", 1, Map.of());
        assertEquals(Errors.NONE, produce("queued", 0, batch(1)));
        ObjectName produce = name("request-metrics", ",request=Produce");
        Conditions.waitUntil(() -> (Double) attribute(produce, "request-queue-time-ms-max") > 0.0,
            "the queue time of Produce to be recorded");
        assertTrue((Double) JMX.getAttribute(produce, "request-queue-time-ms-avg") > 0.0);
    }

    @Test
    public void aDeletedPartitionsSizeGaugeIsUnregistered() throws Exception {
        CLUSTER.createTopic("doomed", 1, Map.of());
        assertEquals(Errors.NONE, produce("doomed", 0, batch(2)));
        ObjectName partition = name("log", ",topic=doomed,partition=0");
        ObjectName topic = name("broker-topic-metrics", ",topic=doomed");
        assertEquals(log("doomed", 0).size(), JMX.getAttribute(partition, "size"));
        assertTrue(JMX.isRegistered(topic));
        CLUSTER.broker(0).cluster().deleteTopic("doomed").get(30, TimeUnit.SECONDS);
        Conditions.waitUntil(() -> !JMX.isRegistered(partition), "the size gauge to go");
        Conditions.waitUntil(() -> !JMX.isRegistered(topic), "the topic's traffic metrics to go");
        assertFalse(CLUSTER.broker(0).logManager().getLog("doomed", 0).isPresent());
    }

    private static Object attribute(ObjectName name, String attribute) {
        try {
            return JMX.getAttribute(name, attribute);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static ObjectName name(String type, String tags) throws Exception {
        return new ObjectName("io.millrace:type=" + type + ",broker=0" + tags);
    }

    private static Log log(String topic, int partition) {
        return CLUSTER.broker(0).logManager().getLog(topic, partition).orElseThrow();
    }

    private static Errors produce(String topic, int partition, ByteBuffer records) throws Exception {
        try (RawClient client = new RawClient(CLUSTER.broker(0).boundPort())) {
            ProduceRequest request = new ProduceRequest(null, (short) 1, 10_000, List.of(
                new ProduceRequest.TopicData(topic, List.of(new ProduceRequest.PartitionData(partition, records)))));
            ProduceResponse response = client.call(request, PRODUCE_V);
            return response.responses().get(0).partitionResponses().get(0).error();
        }
    }

    private static FetchRequest fetchRequest(String topic, int partition, long offset, int maxBytes, int maxWaitMs,
                                             int minBytes) {
        return new FetchRequest(-1, maxWaitMs, minBytes, maxBytes, (byte) 0, 0, -1, List.of(new FetchRequest.FetchTopic(topic,
            List.of(FetchRequest.FetchPartition.of(partition, offset, maxBytes)))), List.of(), "");
    }

    private static List<FetchResponse.PartitionData> fetch(String topic, int partition, long offset, int maxBytes,
                                                           int maxWaitMs, int minBytes) throws Exception {
        try (RawClient client = new RawClient(CLUSTER.broker(0).boundPort())) {
            FetchResponse response = client.call(fetchRequest(topic, partition, offset, maxBytes, maxWaitMs, minBytes),
                FETCH_V);
            return response.responses().get(0).partitions();
        }
    }

    private static ByteBuffer batch(int records) {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0L, 1024);
        for (int i = 0; i < records; i++) {
            builder.append(1_000L + i, utf8("k" + i), utf8("value " + i));
        }
        return builder.build();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
