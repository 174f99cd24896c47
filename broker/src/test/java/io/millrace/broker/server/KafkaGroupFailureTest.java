package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.broker.group.GroupConfig;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.CommitFailedException;
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
 * A Kafka consumer that stops polling for longer than max.poll.interval.ms is put out of the group
 * on a Millrace broker as on Kafka's: the other member gets its partitions and reads on from the
 * last commit, the late member's commitSync fails with CommitFailedException, and its next poll
 * joins the group again.
 */
public class KafkaGroupFailureTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 1, Map.of(
        GroupConfig.GROUP_MIN_SESSION_TIMEOUT_MS_CONFIG, 500));

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    private static final int PARTITIONS = 4;
    private static final int MAX_POLL_INTERVAL_MS = 2_000;

    private final Map<String, AtomicInteger> reads = new ConcurrentHashMap<>();

    @Test
    public void aMemberThatStopsPollingIsPutOutAndItsLateCommitFails() throws Exception {
        String topic = "slow-topic";
        String group = "slow-group";
        CLUSTER.createTopic(topic, PARTITIONS, Map.of());
        produce(topic, 0, 200);
        Properties props = CLUSTER.clientProps();
        props.put("group.id", group);
        props.put("auto.offset.reset", "earliest");
        props.put("session.timeout.ms", "3000");
        props.put("heartbeat.interval.ms", "200");
        props.put("max.poll.records", "10");
        props.put("max.poll.interval.ms", Integer.toString(MAX_POLL_INTERVAL_MS));
        try (PollingMember steady = new PollingMember(props, topic, "steady", reads);
             KafkaConsumer<byte[], byte[]> slow = new KafkaConsumer<>(withoutAutoCommit(props), new ByteArrayDeserializer(),
                 new ByteArrayDeserializer())) {
            slow.subscribe(List.of(topic));
            List<String> slowRead = new ArrayList<>();
            long deadline = System.currentTimeMillis() + 30_000;
            while ((slow.assignment().size() != 2 || steady.assigned().size() != 2) && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : slow.poll(Duration.ofMillis(100))) {
                    slowRead.add(new String(r.value(), StandardCharsets.UTF_8));
                }
            }
            assertEquals(2, slow.assignment().size());
            produce(topic, 200, 200);
            while (slowRead.isEmpty() && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : slow.poll(Duration.ofMillis(100))) {
                    slowRead.add(new String(r.value(), StandardCharsets.UTF_8));
                }
            }
            assertTrue(slowRead.size() > 0);
            // named explicitly: once the client has left the group it may have no consumed offsets
            // left to commit, and commitSync() of nothing returns without asking the broker
            Map<TopicPartition, OffsetAndMetadata> lateCommit = new java.util.HashMap<>();
            for (TopicPartition tp : slow.assignment()) {
                lateCommit.put(tp, new OffsetAndMetadata(1));
            }

            // "processing" the last batch takes longer than max.poll.interval.ms
            Conditions.waitUntil(() -> steady.assigned().size() == PARTITIONS, 30_000,
                "the steady member taking the slow one's partitions");
            try {
                slow.commitSync(lateCommit);
                fail("a member put out of the group committed");
            } catch (CommitFailedException expected) {
                // as on Kafka
            }
            produce(topic, 400, 200);
            Conditions.waitUntil(() -> reads.size() == 600, 30_000, "every record read by the steady member");

            // its next poll joins the group again
            List<String> slowLate = new ArrayList<>();
            deadline = System.currentTimeMillis() + 30_000;
            // (until then slow.assignment() still names the partitions it had: the client learns it lost
            // them only when it rejoins)
            while ((slow.assignment().size() != 2 || steady.assigned().size() != 2) && System.currentTimeMillis() < deadline) {
                slow.poll(Duration.ofMillis(100)).forEach(r -> slowLate.add(new String(r.value(), StandardCharsets.UTF_8)));
            }
            assertEquals(2, slow.assignment().size());
            assertEquals(2, steady.assigned().size());
            slow.commitSync();

            // what the slow member read without committing was read again, from the last commit, by the
            // steady member (Kafka's at-least-once); from then on every record was read once
            for (String value : slowRead) {
                assertEquals(value, 1, reads.get(value).get());
            }
            for (int i = 0; i < 600; i++) {
                String value = "r-" + i;
                int times = reads.getOrDefault(value, new AtomicInteger()).get() + (slowLate.contains(value) ? 1 : 0);
                assertEquals(value, 1, times);
            }
        }
    }

    private static Properties withoutAutoCommit(Properties props) {
        Properties copy = new Properties();
        copy.putAll(props);
        copy.put("client.id", "slow");
        copy.put("enable.auto.commit", "false");
        return copy;
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
