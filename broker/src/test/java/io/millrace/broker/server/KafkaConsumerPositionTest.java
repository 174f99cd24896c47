package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.broker.group.GroupConfig;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.NoOffsetForPartitionException;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * Where Kafka's {@code KafkaConsumer} in a group starts and goes on reading on a Millrace broker:
 * from its commits (sync and async) after a restart, from seek(), seekToBeginning() and seekToEnd(),
 * and by auto.offset.reset (earliest, latest, none) when it has no commit or one out of range.
 */
public class KafkaConsumerPositionTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 1, Map.of(
        GroupConfig.GROUP_MIN_SESSION_TIMEOUT_MS_CONFIG, 500));

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    private static KafkaConsumer<byte[], byte[]> consumer(String group, String reset) {
        return consumer(group, reset, new Properties());
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String group, String reset, Properties extra) {
        Properties props = CLUSTER.clientProps();
        props.put("group.id", group);
        props.put("enable.auto.commit", "false");
        props.put("auto.offset.reset", reset);
        props.put("session.timeout.ms", "2000");
        props.put("heartbeat.interval.ms", "200");
        props.put("max.poll.records", "10");
        props.putAll(extra);
        return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** A one-partition topic holding records "0" to "count - 1" at the offsets of the same numbers. */
    private static TopicPartition topicWith(String topic, int count) throws Exception {
        CLUSTER.createTopic(topic, 1, Map.of());
        produce(topic, 0, count);
        return new TopicPartition(topic, 0);
    }

    private static void produce(String topic, int from, int count) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(CLUSTER.clientProps(), new ByteArraySerializer(),
            new ByteArraySerializer())) {
            for (int i = from; i < from + count; i++) {
                producer.send(new ProducerRecord<>(topic, 0, null, Integer.toString(i).getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }
    }

    /** Polls until {@code count} records came, checking each value is its offset; returns the offsets. */
    private static List<Long> read(KafkaConsumer<byte[], byte[]> consumer, int count) {
        List<Long> offsets = new ArrayList<>();
        long deadline = System.currentTimeMillis() + 30_000;
        while (offsets.size() < count && System.currentTimeMillis() < deadline) {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                assertEquals(Long.toString(r.offset()), new String(r.value(), StandardCharsets.UTF_8));
                offsets.add(r.offset());
                if (offsets.size() == count) {
                    // the rest of this batch is left unread: the position goes back to the next record
                    consumer.seek(new TopicPartition(r.topic(), r.partition()), r.offset() + 1);
                    break;
                }
            }
        }
        assertEquals(count, offsets.size());
        return offsets;
    }

    private static List<Long> range(long from, long to) {
        List<Long> list = new ArrayList<>();
        for (long i = from; i < to; i++) {
            list.add(i);
        }
        return list;
    }

    @Test
    public void commitSyncAndCommitAsyncCarryARestartedConsumerOnFromWhatItCommitted() throws Exception {
        TopicPartition tp = topicWith("resumed", 100);
        String group = "resumer";
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(group, "earliest")) {
            consumer.subscribe(List.of(tp.topic()));
            assertEquals(range(0, 40), read(consumer, 40));
            CompletableFuture<Map<TopicPartition, OffsetAndMetadata>> done = new CompletableFuture<>();
            consumer.commitAsync((offsets, e) -> {
                if (e != null) {
                    done.completeExceptionally(e);
                } else {
                    done.complete(offsets);
                }
            });
            // async commit callbacks run inside poll(); the paused partition gives no records meanwhile
            consumer.pause(Set.of(tp));
            long deadline = System.currentTimeMillis() + 10_000;
            while (!done.isDone() && System.currentTimeMillis() < deadline) {
                assertTrue(consumer.poll(Duration.ofMillis(50)).isEmpty());
            }
            assertEquals(40, done.get(1, TimeUnit.SECONDS).get(tp).offset());
        }
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(group, "earliest")) {
            consumer.subscribe(List.of(tp.topic()));
            assertEquals("resumed from the async commit", range(40, 70), read(consumer, 30));
            consumer.commitSync(Map.of(tp, new OffsetAndMetadata(70, "after-70")));
            assertEquals(70, consumer.committed(Set.of(tp)).get(tp).offset());
            assertEquals("after-70", consumer.committed(Set.of(tp)).get(tp).metadata());
            read(consumer, 10); // read but not committed: read again after the restart
        }
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(group, "earliest")) {
            consumer.subscribe(List.of(tp.topic()));
            assertEquals("resumed from the sync commit", range(70, 100), read(consumer, 30));
            consumer.commitSync();
            assertEquals(100, consumer.committed(Set.of(tp)).get(tp).offset());
        }
    }

    @Test
    public void autoCommitCommitsWhatWasReadByCloseAndARestartResumesThere() throws Exception {
        TopicPartition tp = topicWith("auto-committed", 60);
        Properties auto = new Properties();
        auto.put("enable.auto.commit", "true");
        auto.put("auto.commit.interval.ms", "100");
        try (KafkaConsumer<byte[], byte[]> consumer = consumer("auto-committer", "earliest", auto)) {
            consumer.subscribe(List.of(tp.topic()));
            assertEquals(range(0, 25), read(consumer, 25));
        }
        try (KafkaConsumer<byte[], byte[]> consumer = consumer("auto-committer", "none", auto)) {
            consumer.subscribe(List.of(tp.topic()));
            assertEquals(range(25, 60), read(consumer, 35));
        }
    }

    @Test
    public void aConsumerOutsideTheGroupCannotCommitWhileTheGroupHasMembers() throws Exception {
        TopicPartition tp = topicWith("shared-group-topic", 10);
        try (KafkaConsumer<byte[], byte[]> member = consumer("busy-group", "earliest");
             KafkaConsumer<byte[], byte[]> outsider = consumer("busy-group", "earliest")) {
            member.subscribe(List.of(tp.topic()));
            assertEquals(range(0, 10), read(member, 10));
            member.commitSync();
            outsider.assign(List.of(tp));
            try {
                outsider.commitSync(Map.of(tp, new OffsetAndMetadata(3)));
                fail("a consumer outside the group committed for it");
            } catch (CommitFailedException expected) {
                // UNKNOWN_MEMBER_ID, as from Kafka's broker
            }
            assertEquals(10, outsider.committed(Set.of(tp)).get(tp).offset());
        }
    }

    @Test
    public void seekSeekToBeginningAndSeekToEndMoveAGroupMembersPosition() throws Exception {
        TopicPartition tp = topicWith("seeking", 50);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer("seeker", "earliest")) {
            consumer.subscribe(List.of(tp.topic()));
            assertEquals(range(0, 5), read(consumer, 5));
            consumer.seek(tp, 30);
            assertEquals(30, consumer.position(tp));
            assertEquals(range(30, 35), read(consumer, 5));
            consumer.seek(tp, new OffsetAndMetadata(12));
            assertEquals(range(12, 14), read(consumer, 2));
            consumer.seekToBeginning(Set.of(tp));
            assertEquals(0, consumer.position(tp));
            assertEquals(range(0, 3), read(consumer, 3));
            consumer.seekToEnd(Set.of(tp));
            assertEquals(50, consumer.position(tp));
            assertTrue(consumer.poll(Duration.ofMillis(300)).isEmpty());
            produce(tp.topic(), 50, 5);
            assertEquals(range(50, 55), read(consumer, 5));
            consumer.commitSync();
        }
        produce(tp.topic(), 55, 1);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer("seeker", "none")) {
            consumer.subscribe(List.of(tp.topic()));
            assertEquals("the commit after seekToEnd is where the group goes on", range(55, 56), read(consumer, 1));
        }
    }

    @Test
    public void autoOffsetResetEarliestLatestAndNoneForAGroupWithoutCommits() throws Exception {
        TopicPartition tp = topicWith("resetting", 20);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer("from-earliest", "earliest")) {
            consumer.subscribe(List.of(tp.topic()));
            assertEquals(range(0, 20), read(consumer, 20));
        }
        try (KafkaConsumer<byte[], byte[]> consumer = consumer("from-latest", "latest")) {
            consumer.subscribe(List.of(tp.topic()));
            long deadline = System.currentTimeMillis() + 30_000;
            while (consumer.assignment().isEmpty() && System.currentTimeMillis() < deadline) {
                assertTrue("latest reads nothing already there", consumer.poll(Duration.ofMillis(100)).isEmpty());
            }
            assertEquals(20, consumer.position(tp));
            produce(tp.topic(), 20, 3);
            assertEquals(range(20, 23), read(consumer, 3));
        }
        try (KafkaConsumer<byte[], byte[]> consumer = consumer("from-nowhere", "none")) {
            consumer.subscribe(List.of(tp.topic()));
            try {
                long deadline = System.currentTimeMillis() + 30_000;
                while (System.currentTimeMillis() < deadline) {
                    consumer.poll(Duration.ofMillis(100));
                }
                fail("no NoOffsetForPartitionException");
            } catch (NoOffsetForPartitionException expected) {
                assertEquals(Set.of(tp), expected.partitions());
            }
            assertNull(consumer.committed(Set.of(tp)).get(tp));
        }
    }

    @Test
    public void aCommittedOffsetBeyondTheLogIsResetByAutoOffsetResetOrFailsWithNone() throws Exception {
        TopicPartition tp = topicWith("beyond", 10);
        for (String group : List.of("beyond-latest", "beyond-earliest", "beyond-none")) {
            try (KafkaConsumer<byte[], byte[]> consumer = consumer(group, "none")) {
                consumer.assign(List.of(tp));
                consumer.commitSync(Map.of(tp, new OffsetAndMetadata(1_000)));
            }
        }
        try (KafkaConsumer<byte[], byte[]> consumer = consumer("beyond-earliest", "earliest")) {
            consumer.subscribe(List.of(tp.topic()));
            assertEquals(range(0, 10), read(consumer, 10));
        }
        try (KafkaConsumer<byte[], byte[]> consumer = consumer("beyond-latest", "latest")) {
            consumer.subscribe(List.of(tp.topic()));
            long deadline = System.currentTimeMillis() + 30_000;
            while ((consumer.assignment().isEmpty() || consumer.position(tp) != 10) && System.currentTimeMillis() < deadline) {
                assertTrue(consumer.poll(Duration.ofMillis(100)).isEmpty());
            }
            assertEquals(10, consumer.position(tp));
        }
        try (KafkaConsumer<byte[], byte[]> consumer = consumer("beyond-none", "none")) {
            consumer.subscribe(List.of(tp.topic()));
            try {
                long deadline = System.currentTimeMillis() + 30_000;
                while (System.currentTimeMillis() < deadline) {
                    consumer.poll(Duration.ofMillis(100));
                }
                fail("no OffsetOutOfRangeException");
            } catch (OffsetOutOfRangeException expected) {
                assertEquals(Long.valueOf(1_000), expected.offsetOutOfRangePartitions().get(tp));
            }
        }
    }
}
