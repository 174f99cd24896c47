package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.group.GroupConfig;
import io.millrace.common.utils.Time;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * Offset retention in a running broker, with {@code offsets.retention.minutes=1}, a check every
 * 200 ms and the broker's wall clock moved ahead rather than waited for: the offsets of a group
 * whose member left and of a consumer that only assigns partitions expire; those of a group with a
 * live member stay.
 */
public class OffsetRetentionBrokerTest {

    /** The system clock, its wall-clock milliseconds moved ahead by {@link #skewMs}. */
    private static final class MovedClock implements Time {
        volatile long skewMs;

        @Override
        public long milliseconds() {
            return System.currentTimeMillis() + skewMs;
        }

        @Override
        public long nanoseconds() {
            return System.nanoTime();
        }

        @Override
        public void sleep(long ms) {
            Time.SYSTEM.sleep(ms);
        }
    }

    private static final MovedClock CLOCK = new MovedClock();
    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 1, Map.of(
        GroupConfig.OFFSETS_RETENTION_MINUTES_CONFIG, 1, GroupConfig.OFFSETS_RETENTION_CHECK_INTERVAL_MS_CONFIG, 200L),
        CLOCK);

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    private static KafkaConsumer<byte[], byte[]> consumer(String group) {
        Properties props = CLUSTER.clientProps();
        props.put("group.id", group);
        props.put("enable.auto.commit", "false");
        props.put("auto.offset.reset", "earliest");
        props.put("session.timeout.ms", "6000");
        props.put("heartbeat.interval.ms", "300");
        return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static void joinAndCommit(KafkaConsumer<byte[], byte[]> consumer, String topic) {
        consumer.subscribe(List.of(topic));
        long deadline = System.currentTimeMillis() + 30_000;
        while (consumer.assignment().isEmpty()) {
            consumer.poll(Duration.ofMillis(100));
            assertTrue("no assignment within 30 s", System.currentTimeMillis() < deadline);
        }
        consumer.commitSync(Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(0)));
    }

    @Test
    public void offsetsOfGroupsWithoutMembersExpireAndThoseOfALiveGroupStay() throws Exception {
        String topic = "retained";
        CLUSTER.createTopic(topic, 1, Map.of());
        TopicPartition tp = new TopicPartition(topic, 0);
        try (KafkaConsumer<byte[], byte[]> assigned = consumer("assigner")) {
            assigned.assign(List.of(tp));
            assigned.commitSync(Map.of(tp, new OffsetAndMetadata(3)));
        }
        try (KafkaConsumer<byte[], byte[]> left = consumer("left")) {
            joinAndCommit(left, topic);
        }
        try (Admin admin = Admin.create(CLUSTER.clientProps()); KafkaConsumer<byte[], byte[]> live = consumer("live")) {
            joinAndCommit(live, topic);
            Conditions.waitUntil(() -> listed(admin).containsAll(Set.of("assigner", "left", "live")), "three groups listed");
            Thread.sleep(1_000); // a few checks on the true clock: nothing is old enough yet
            assertEquals(Set.of(tp), admin.listConsumerGroupOffsets("assigner").partitionsToOffsetAndMetadata()
                .get(10, TimeUnit.SECONDS).keySet());

            CLOCK.skewMs = 61_000;
            Conditions.waitUntil(() -> !listed(admin).contains("assigner") && !listed(admin).contains("left"),
                "the groups without members gone");
            assertEquals(Map.of(), admin.listConsumerGroupOffsets("left").partitionsToOffsetAndMetadata()
                .get(10, TimeUnit.SECONDS));
            live.poll(Duration.ofMillis(100));
            assertTrue(listed(admin).contains("live"));
            assertEquals(0, admin.listConsumerGroupOffsets("live").partitionsToOffsetAndMetadata()
                .get(10, TimeUnit.SECONDS).get(tp).offset());
            assertFalse(listed(admin).contains("left"));
        }
    }

    private static Set<String> listed(Admin admin) {
        try {
            return admin.listGroups(ListGroupsOptions.forConsumerGroups()).all().get(10, TimeUnit.SECONDS).stream()
                .map(GroupListing::groupId).collect(Collectors.toSet());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
