package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;

import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * The broker coordinating a group on the consumer group protocol shuts down. The next coordinator
 * does not know the group (its membership is held in memory), but the member tells it in full what
 * it subscribes to and owns, at its epoch: it is taken in as it is, and its commits, retried
 * until then, are taken. It goes on with the partitions it had, without a rebalance, and every
 * record is read exactly once.
 */
public class ConsumerProtocolCoordinatorMoveTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 2,
        Map.of("group.consumer.heartbeat.interval.ms", "300"));

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    private static final String TOPIC = "kip848-moving";
    private static final String GROUP = "kip848-mover";
    private static final int PARTITIONS = 4;

    private static void produce(int survivor, int from, int count) throws Exception {
        Properties props = CLUSTER.clientProps();
        props.put("bootstrap.servers", "127.0.0.1:" + CLUSTER.broker(survivor).boundPort());
        props.put("acks", "all");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
            new ByteArraySerializer())) {
            for (int i = from; i < from + count; i++) {
                producer.send(new ProducerRecord<>(TOPIC, i % PARTITIONS, null, ("r-" + i).getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }
    }

    @Test(timeout = 120_000)
    public void theMemberIsTakenInByTheNextCoordinatorWithItsPartitionsAndReadsEveryRecordOnce() throws Exception {
        CLUSTER.broker(0).cluster().createTopic(TOPIC, PARTITIONS, 2, Map.of(), Duration.ofSeconds(30)).get(30, TimeUnit.SECONDS);
        CLUSTER.awaitLogs(TOPIC, PARTITIONS);
        int coordinator = CLUSTER.broker(0).groupCoordinator().findCoordinator(GROUP, 10_000);
        int survivor = 1 - coordinator;
        produce(survivor, 0, 200);
        Map<String, AtomicInteger> reads = new ConcurrentHashMap<>();
        Properties props = CLUSTER.clientProps();
        props.put("bootstrap.servers", "127.0.0.1:" + CLUSTER.broker(survivor).boundPort());
        props.put("group.protocol", "consumer");
        props.put("group.id", GROUP);
        props.put("auto.offset.reset", "earliest");
        props.put("reconnect.backoff.max.ms", "200");
        try (PollingMember member = new PollingMember(props, TOPIC, "mover", reads)) {
            Conditions.waitUntil(() -> reads.size() == 200, 60_000, "the first 200 records read");
            CLUSTER.stop(coordinator);
            Conditions.waitUntil(() -> CLUSTER.broker(survivor).cluster().metadata().liveBrokers().size() == 1, 30_000,
                "the survivor seeing one live broker");
            produce(survivor, 200, 200);
            Conditions.waitUntil(() -> reads.size() == 400, 60_000, "every record read after the move");
            assertEquals(PARTITIONS, member.assigned().size());
            assertEquals("no rebalance reached the member's listener", 1, member.assignments());
        }
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", "127.0.0.1:" + CLUSTER.broker(survivor).boundPort()))) {
            long committed = admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS)
                .values().stream().mapToLong(OffsetAndMetadata::offset).sum();
            assertEquals("every record's commit is at the next coordinator", 400, committed);
        }
        for (int i = 0; i < 400; i++) {
            assertEquals("r-" + i, 1, reads.get("r-" + i).get());
        }
    }
}
