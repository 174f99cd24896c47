package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;

import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
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
 * The broker coordinating a group shuts down: the group moves to the other broker, its member
 * goes on reading there, and no committed offset is lost (replicated in __consumer_offsets, whose
 * partition moves with it). {@link GroupGenerationMoveTest} checks that the member keeps its id and
 * generation.
 */
public class GroupCoordinatorMoveTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 2, Map.of());

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    private static final String TOPIC = "moving";
    private static final String GROUP = "mover";
    private static final int PARTITIONS = 4;

    @Test
    public void theGroupMovesWithTheLiveBrokersAndKeepsItsCommittedOffsets() throws Exception {
        CLUSTER.createTopic(TOPIC, PARTITIONS, Map.of());
        int coordinator = CLUSTER.broker(0).groupCoordinator().findCoordinator(GROUP, 10_000);
        int survivor = 1 - coordinator;
        List<Integer> survivingPartitions = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            if (CLUSTER.broker(0).cluster().metadata().leader(TOPIC, p) == survivor) {
                survivingPartitions.add(p);
            }
        }
        produce(List.of(0, 1, 2, 3), 0, 40);

        Map<String, AtomicInteger> reads = new ConcurrentHashMap<>();
        Properties props = CLUSTER.clientProps();
        props.put("bootstrap.servers", "127.0.0.1:" + CLUSTER.broker(survivor).boundPort());
        props.put("group.id", GROUP);
        props.put("enable.auto.commit", "false");
        props.put("auto.offset.reset", "earliest");
        props.put("session.timeout.ms", "6000");
        props.put("heartbeat.interval.ms", "300");
        props.put("reconnect.backoff.max.ms", "200");
        Map<TopicPartition, OffsetAndMetadata> before;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(TOPIC));
            pollUntil(consumer, reads, 40);
            before = consumer.committed(partitions(List.of(0, 1, 2, 3)));
            assertEquals(40, before.values().stream().mapToLong(OffsetAndMetadata::offset).sum());

            CLUSTER.stop(coordinator);
            Conditions.waitUntil(() -> CLUSTER.broker(survivor).cluster().metadata().liveBrokers().size() == 1, 30_000,
                "the survivor seeing one live broker");
            produce(survivingPartitions, 40, 20);
            pollUntil(consumer, reads, 60);
        }
        // read at least once: the offsets committed before the move are the floor; the generation carried
        // over keeps the member from rejoining, which GroupGenerationMoveTest checks
        assertEquals(60, reads.size());
        for (int i = 0; i < 40; i++) {
            assertEquals("m-" + i + " was committed before the move", 1, reads.get("m-" + i).get());
        }
        // a fresh consumer asks the new coordinator: nothing committed was lost
        try (KafkaConsumer<byte[], byte[]> fresh = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
            Map<TopicPartition, OffsetAndMetadata> after = fresh.committed(partitions(List.of(0, 1, 2, 3)));
            for (int p = 0; p < PARTITIONS; p++) {
                TopicPartition tp = new TopicPartition(TOPIC, p);
                assertNotNull(tp.toString(), after.get(tp));
                int index = p;
                long moved = java.util.stream.IntStream.range(40, 60)
                    .filter(i -> survivingPartitions.get(i % survivingPartitions.size()) == index).count();
                long expected = before.get(tp).offset() + moved;
                assertEquals(tp.toString(), expected, after.get(tp).offset());
            }
        }
    }

    private static Set<TopicPartition> partitions(List<Integer> indexes) {
        Set<TopicPartition> set = new java.util.HashSet<>();
        indexes.forEach(p -> set.add(new TopicPartition(TOPIC, p)));
        return set;
    }

    /**
     * Polls and commits after every poll until {@code total} distinct records were read and the
     * positions after all of them ({@code total} in all: every record of the topic) are committed.
     * The commit after the last records can fail while the member rejoins the moved coordinator;
     * the rejoined member then starts again from the committed offsets, reads those records again
     * and commits the positions after them.
     */
    private static void pollUntil(KafkaConsumer<byte[], byte[]> consumer, Map<String, AtomicInteger> reads, int total) {
        long deadline = System.currentTimeMillis() + 60_000;
        boolean committed = false;
        while (reads.size() < total || !committed) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("read " + reads.size() + " of " + total + (committed ? "" : ", the last not committed"));
            }
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                reads.computeIfAbsent(new String(r.value(), StandardCharsets.UTF_8), v -> new AtomicInteger()).incrementAndGet();
            }
            Map<TopicPartition, OffsetAndMetadata> positions = new HashMap<>();
            for (TopicPartition tp : consumer.assignment()) {
                positions.put(tp, new OffsetAndMetadata(consumer.position(tp, Duration.ofSeconds(5))));
            }
            try {
                consumer.commitSync(positions);
                committed = positions.size() == PARTITIONS
                    && positions.values().stream().mapToLong(OffsetAndMetadata::offset).sum() == total;
            } catch (org.apache.kafka.common.errors.RetriableException
                     | org.apache.kafka.clients.consumer.CommitFailedException
                     | org.apache.kafka.common.errors.RebalanceInProgressException moving) {
                // the coordinator is moving: the member rejoins in the next poll and commits again
                committed = false;
            }
        }
    }

    private static void produce(List<Integer> partitions, int from, int count) throws Exception {
        Properties props = CLUSTER.clientProps();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
            new ByteArraySerializer())) {
            for (int i = from; i < from + count; i++) {
                producer.send(new ProducerRecord<>(TOPIC, partitions.get(i % partitions.size()), null,
                    ("m-" + i).getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }
    }
}
