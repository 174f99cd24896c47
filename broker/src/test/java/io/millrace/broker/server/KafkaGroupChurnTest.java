package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;

import io.millrace.broker.group.GroupConfig;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * Many Kafka consumers joining one group at the same moment, then half of them leaving at the same
 * moment: every partition ends up owned by exactly one member and every record is read once.
 */
public class KafkaGroupChurnTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 1, Map.of(
        GroupConfig.GROUP_MIN_SESSION_TIMEOUT_MS_CONFIG, 500));

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    private static final int PARTITIONS = 12;
    private static final int MEMBERS = 8;

    private final Map<String, AtomicInteger> reads = new ConcurrentHashMap<>();

    @Test
    public void eightMembersJoiningAtOnceThenFourLeavingAtOnceShareEveryPartitionOnce() throws Exception {
        String topic = "churn-topic";
        CLUSTER.createTopic(topic, PARTITIONS, Map.of());
        produce(topic, 0, 240);
        Properties props = CLUSTER.clientProps();
        props.put("group.id", "churners");
        props.put("auto.offset.reset", "earliest");
        props.put("session.timeout.ms", "3000");
        props.put("heartbeat.interval.ms", "200");
        props.put("max.poll.records", "20");
        props.put("partition.assignment.strategy", "org.apache.kafka.clients.consumer.RoundRobinAssignor");
        List<PollingMember> members = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(MEMBERS);
        try {
            List<Future<PollingMember>> starting = new ArrayList<>();
            for (int i = 0; i < MEMBERS; i++) {
                String name = "churner-" + i;
                starting.add(pool.submit(() -> new PollingMember(props, topic, name, reads)));
            }
            for (Future<PollingMember> f : starting) {
                members.add(f.get(30, TimeUnit.SECONDS));
            }
            Conditions.waitUntil(() -> ownedOnceEach(members) && members.stream().allMatch(m -> !m.assigned().isEmpty()),
                30_000, "every partition owned once, by all eight members");
            Conditions.waitUntil(() -> reads.size() == 240, 30_000, "the first records read");

            List<Future<?>> leaving = new ArrayList<>();
            for (PollingMember m : members.subList(0, MEMBERS / 2)) {
                leaving.add(pool.submit(() -> {
                    m.close();
                    return null;
                }));
            }
            for (Future<?> f : leaving) {
                f.get(30, TimeUnit.SECONDS);
            }
            List<PollingMember> left = members.subList(MEMBERS / 2, MEMBERS);
            Conditions.waitUntil(() -> ownedOnceEach(left) && left.stream().allMatch(m -> m.assigned().size() == 3),
                30_000, "three partitions for each of the four members left");
            produce(topic, 240, 240);
            Conditions.waitUntil(() -> reads.size() == 480, 30_000, "every record read");
        } finally {
            for (PollingMember m : members) {
                m.close();
            }
            pool.shutdownNow();
        }
        for (int i = 0; i < 480; i++) {
            assertEquals("r-" + i, 1, reads.get("r-" + i).get());
        }
    }

    private static boolean ownedOnceEach(List<PollingMember> members) {
        List<TopicPartition> owned = new ArrayList<>();
        members.forEach(m -> owned.addAll(m.assigned()));
        Set<TopicPartition> distinct = new HashSet<>(owned);
        return owned.size() == PARTITIONS && distinct.size() == PARTITIONS;
    }

    private static void produce(String topic, int from, int count) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(CLUSTER.clientProps(), new ByteArraySerializer(),
            new ByteArraySerializer())) {
            for (int i = from; i < from + count; i++) {
                producer.send(new ProducerRecord<>(topic, i % PARTITIONS, null, ("r-" + i).getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }
    }
}
