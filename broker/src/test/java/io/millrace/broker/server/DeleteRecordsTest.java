package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.log.Log;
import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.DeleteRecordsRequest;
import io.millrace.common.protocol.message.DeleteRecordsResponse;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/** Kafka's AdminClient deleteRecords against a Millrace broker, and what consumers see afterwards. */
public class DeleteRecordsTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 1, Map.of());

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    /** Creates a topic of two partitions with small segments and writes {@code count} records to partition 0. */
    private static void createAndFill(Admin admin, String topic, int count) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1).configs(Map.of("segment.bytes", "1024"))))
            .all().get(30, TimeUnit.SECONDS);
        CLUSTER.awaitLogs(topic, 2);
        Properties props = CLUSTER.clientProps();
        props.put("key.serializer", StringSerializer.class.getName());
        props.put("value.serializer", StringSerializer.class.getName());
        props.put("linger.ms", "0");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, 0, "k" + i, "record " + i + " " + "x".repeat(40))).get(30, TimeUnit.SECONDS);
            }
        }
    }

    private static long lowWatermark(Admin admin, TopicPartition tp, long before) throws Exception {
        return admin.deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(before))).lowWatermarks().get(tp)
            .get(30, TimeUnit.SECONDS).lowWatermark();
    }

    private static long offset(Admin admin, TopicPartition tp, OffsetSpec spec) throws Exception {
        return admin.listOffsets(Map.of(tp, spec)).partitionResult(tp).get(30, TimeUnit.SECONDS).offset();
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String reset) {
        Properties props = CLUSTER.clientProps();
        props.put("key.deserializer", ByteArrayDeserializer.class.getName());
        props.put("value.deserializer", ByteArrayDeserializer.class.getName());
        props.put("auto.offset.reset", reset);
        return new KafkaConsumer<>(props);
    }

    private static long firstOffsetFromTheBeginning(TopicPartition tp) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer("earliest")) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    return record.offset();
                }
            }
            throw new AssertionError("no record read from " + tp);
        }
    }

    @Test
    public void theLowWatermarkMovesAndEarliestOffsetsAndFetchesFollowIt() throws Exception {
        String topic = "delete-records";
        TopicPartition tp = new TopicPartition(topic, 0);
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            createAndFill(admin, topic, 100);
            Log log = CLUSTER.broker(0).logManager().getLog(topic, 0).orElseThrow();
            int segmentsBefore = log.numberOfSegments();
            assertEquals(40, lowWatermark(admin, tp, 40));
            assertEquals(40, offset(admin, tp, OffsetSpec.earliest()));
            assertEquals(100, offset(admin, tp, OffsetSpec.latest()));
            assertEquals("the first record a consumer reads", 40, firstOffsetFromTheBeginning(tp));
            assertTrue("segments wholly below offset 40 are gone", log.numberOfSegments() < segmentsBefore);
            assertTrue(log.segmentBaseOffsets().get(0) <= 40);
            assertEquals("an earlier offset leaves the low watermark where it is", 40, lowWatermark(admin, tp, 10));
        }
    }

    @Test
    public void aFetchBelowTheLowWatermarkIsOutOfRange() throws Exception {
        String topic = "fetch-below";
        TopicPartition tp = new TopicPartition(topic, 0);
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            createAndFill(admin, topic, 30);
            lowWatermark(admin, tp, 20);
        }
        try (KafkaConsumer<byte[], byte[]> consumer = consumer("none")) {
            consumer.assign(List.of(tp));
            consumer.seek(tp, 5);
            OffsetOutOfRangeException e = assertThrows(OffsetOutOfRangeException.class, () -> {
                for (int i = 0; i < 150; i++) {
                    consumer.poll(Duration.ofMillis(200));
                }
            });
            assertEquals(Map.of(tp, 5L), e.offsetOutOfRangePartitions());
        }
    }

    @Test
    public void minusOneDeletesUpToTheHighWatermarkAndBeyondItIsRefused() throws Exception {
        String topic = "delete-all";
        TopicPartition tp = new TopicPartition(topic, 0);
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            createAndFill(admin, topic, 25);
            ExecutionException beyond = assertThrows(ExecutionException.class, () -> lowWatermark(admin, tp, 26));
            assertTrue(beyond.getCause().toString(),
                beyond.getCause() instanceof org.apache.kafka.common.errors.OffsetOutOfRangeException);
            assertEquals(25, lowWatermark(admin, tp, RecordsToDelete.beforeOffset(-1).beforeOffset()));
            assertEquals(25, offset(admin, tp, OffsetSpec.earliest()));
            assertEquals("an empty partition's low watermark is its end", 0, lowWatermark(admin, new TopicPartition(topic, 1), -1));
        }
        // The AdminClient waits for metadata of a partition that does not exist, so ask the broker directly.
        try (RawClient client = new RawClient(CLUSTER.broker(0).boundPort())) {
            DeleteRecordsResponse response = client.call(new DeleteRecordsRequest(List.of(new DeleteRecordsRequest.DeleteRecordsTopic(
                topic, List.of(new DeleteRecordsRequest.DeleteRecordsPartition(7, 0L), new DeleteRecordsRequest.DeleteRecordsPartition(0, -2L)))),
                1_000), ApiKey.DELETE_RECORDS.maxVersion());
            assertEquals(List.of(new DeleteRecordsResponse.DeleteRecordsPartitionResult(7, -1L, Errors.UNKNOWN_TOPIC_OR_PARTITION.code()),
                new DeleteRecordsResponse.DeleteRecordsPartitionResult(0, -1L, Errors.OFFSET_OUT_OF_RANGE.code())),
                response.topics().get(0).partitions());
        }
    }

    @Test
    public void theLowWatermarkSurvivesARestartAndACrash() throws Exception {
        String topic = "delete-restart";
        TopicPartition tp = new TopicPartition(topic, 0);
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            createAndFill(admin, topic, 60);
            assertEquals(33, lowWatermark(admin, tp, 33));
        }
        CLUSTER.stop(0);
        CLUSTER.start(0);
        CLUSTER.awaitLogs(topic, 2);
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            assertEquals("after a clean restart", 33, offset(admin, tp, OffsetSpec.earliest()));
            assertEquals(51, lowWatermark(admin, tp, 51));
        }
        CLUSTER.crash(0);
        CLUSTER.start(0);
        CLUSTER.awaitLogs(topic, 2);
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            assertEquals("after a crash", 51, offset(admin, tp, OffsetSpec.earliest()));
            assertEquals(60, offset(admin, tp, OffsetSpec.latest()));
        }
        assertEquals(51, firstOffsetFromTheBeginning(tp));
    }
}
