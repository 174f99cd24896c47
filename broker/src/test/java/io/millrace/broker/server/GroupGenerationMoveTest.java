package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;

import io.millrace.broker.group.GroupConfig;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * The broker coordinating a group shuts down and the group moves to the other broker with its
 * generation, stored in __consumer_offsets: the members go on with the ids, generation and
 * partitions they had, without a rebalance, and their commits in that generation are taken, as on
 * Kafka. The offsets topic's segments are small here, so the commits made before the move roll and
 * trim them past the generation's first record: it must have been written again to survive.
 */
public class GroupGenerationMoveTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 2,
        Map.of(GroupConfig.GROUP_INITIAL_REBALANCE_DELAY_MS_CONFIG, 0, GroupConfig.OFFSETS_TOPIC_SEGMENT_BYTES_CONFIG, 1024));

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    private static final String TOPIC = "carried";
    private static final String GROUP = "carriers";
    private static final int PARTITIONS = 4;

    /** What a member's rebalance listener was called with, in order. */
    private static final class Events implements ConsumerRebalanceListener {
        final List<String> seen = new ArrayList<>();

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            seen.add("revoked " + partitions);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            seen.add("assigned " + partitions);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            seen.add("lost " + partitions);
        }
    }

    @Test(timeout = 120_000)
    public void membersKeepTheirIdsGenerationAndPartitionsWhenTheCoordinatorMoves() throws Exception {
        CLUSTER.createTopic(TOPIC, PARTITIONS, Map.of());
        int coordinator = CLUSTER.broker(0).groupCoordinator().findCoordinator(GROUP, 10_000);
        int survivor = 1 - coordinator;
        Events aEvents = new Events();
        Events bEvents = new Events();
        try (KafkaConsumer<byte[], byte[]> a = consumer(survivor); KafkaConsumer<byte[], byte[]> b = consumer(survivor)) {
            a.subscribe(List.of(TOPIC), aEvents);
            b.subscribe(List.of(TOPIC), bEvents);
            Conditions.waitUntil(() -> {
                a.poll(Duration.ofMillis(50));
                b.poll(Duration.ofMillis(50));
                return a.assignment().size() + b.assignment().size() == PARTITIONS && !a.assignment().isEmpty()
                    && !b.assignment().isEmpty() && a.groupMetadata().generationId() == b.groupMetadata().generationId();
            }, 60_000, "two members sharing the partitions in one generation");
            ConsumerGroupMetadata aBefore = a.groupMetadata();
            ConsumerGroupMetadata bBefore = b.groupMetadata();
            Set<TopicPartition> aPartitions = Set.copyOf(a.assignment());
            List<String> aSeen = List.copyOf(aEvents.seen);
            List<String> bSeen = List.copyOf(bEvents.seen);
            int offsetsPartition = io.millrace.broker.group.OffsetsTopic.partitionFor(GROUP,
                CLUSTER.broker(coordinator).cluster().metadata().partitionCount(io.millrace.broker.group.OffsetsTopic.NAME));
            io.millrace.broker.log.Log offsetsLog = CLUSTER.broker(coordinator).logManager()
                .getLog(io.millrace.broker.group.OffsetsTopic.NAME, offsetsPartition).orElseThrow();
            long generationWritten = offsetsLog.logEndOffset() - 1;
            for (int i = 0; i < 60; i++) {
                a.commitSync(zeros(a.assignment()));
                b.commitSync(zeros(b.assignment()));
            }
            Conditions.waitUntil(() -> offsetsLog.logStartOffset() > generationWritten, 30_000,
                "the commits' segments trimmed past the generation's record");

            CLUSTER.stop(coordinator);
            Conditions.waitUntil(() -> CLUSTER.broker(survivor).cluster().metadata().liveBrokers().size() == 1, 30_000,
                "the survivor seeing one live broker");
            // a commit in the generation the members had is taken by the new coordinator
            a.commitSync(zeros(a.assignment()), Duration.ofSeconds(30));
            b.commitSync(zeros(b.assignment()), Duration.ofSeconds(30));
            long until = System.currentTimeMillis() + 3_000; // several heartbeats to the new coordinator
            while (System.currentTimeMillis() < until) {
                a.poll(Duration.ofMillis(100));
                b.poll(Duration.ofMillis(100));
            }
            assertEquals(aBefore.memberId(), a.groupMetadata().memberId());
            assertEquals(bBefore.memberId(), b.groupMetadata().memberId());
            assertEquals(aBefore.generationId(), a.groupMetadata().generationId());
            assertEquals(bBefore.generationId(), b.groupMetadata().generationId());
            assertEquals(aPartitions, a.assignment());
            assertEquals("no rebalance reached a's listener", aSeen, aEvents.seen);
            assertEquals("no rebalance reached b's listener", bSeen, bEvents.seen);

            try (Admin admin = Admin.create(Map.of("bootstrap.servers", "127.0.0.1:" + CLUSTER.broker(survivor).boundPort()))) {
                ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(GROUP)).all().get().get(GROUP);
                assertEquals(GroupState.STABLE, group.groupState());
                assertEquals(survivor, group.coordinator().id());
                Set<String> ids = new HashSet<>();
                Set<TopicPartition> assigned = new HashSet<>();
                for (MemberDescription m : group.members()) {
                    ids.add(m.consumerId());
                    assigned.addAll(m.assignment().topicPartitions());
                }
                assertEquals(Set.of(aBefore.memberId(), bBefore.memberId()), ids);
                assertEquals(PARTITIONS, assigned.size());
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(GROUP)
                    .partitionsToOffsetAndMetadata().get();
                assertEquals(PARTITIONS, committed.size());
            }
        }
    }

    private static Map<TopicPartition, OffsetAndMetadata> zeros(Set<TopicPartition> partitions) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        partitions.forEach(tp -> offsets.put(tp, new OffsetAndMetadata(0)));
        return offsets;
    }

    private static KafkaConsumer<byte[], byte[]> consumer(int broker) {
        Properties props = CLUSTER.clientProps();
        props.put("bootstrap.servers", "127.0.0.1:" + CLUSTER.broker(broker).boundPort());
        props.put("group.id", GROUP);
        props.put("enable.auto.commit", "false");
        props.put("session.timeout.ms", "10000");
        props.put("heartbeat.interval.ms", "300");
        props.put("reconnect.backoff.max.ms", "200");
        return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
