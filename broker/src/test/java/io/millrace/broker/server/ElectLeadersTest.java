package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.cluster.ClusterConfig;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.ElectLeadersRequest;
import io.millrace.common.protocol.message.ElectLeadersResponse;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.ElectionNotNeededException;
import org.apache.kafka.common.errors.PreferredLeaderNotAvailableException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * Kafka's AdminClient {@code electLeaders} (what kafka-leader-election runs) against two brokers
 * whose controller does not move leaders back by itself: a preferred election gives leadership back
 * where a restart took it away, and an unclean one brings a partition whose in-sync replicas are all
 * gone back online on an out-of-sync replica.
 */
public class ElectLeadersTest {

    private final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();
    private final BrokerCluster cluster = new BrokerCluster(zookeeper, 2,
        Map.of(ClusterConfig.AUTO_LEADER_REBALANCE_ENABLE_CONFIG, false));

    @Rule
    public final TestRule rules = RuleChain.outerRule(zookeeper).around(cluster);

    @Test(timeout = 120_000)
    public void aPreferredElectionGivesLeadershipBackWhereARestartTookItAway() throws Exception {
        TopicPartition led = new TopicPartition("led", 0);
        TopicPartition other = new TopicPartition("led", 1);
        int preferredBroker;
        try (Admin admin = Admin.create(cluster.clientProps())) {
            admin.createTopics(List.of(new NewTopic("led", 2, (short) 2))).all().get(30, TimeUnit.SECONDS);
            cluster.awaitLogs("led", 2);
            preferredBroker = partition(admin, led).replicas().get(0).id();
            assertEquals(Map.of(led, ElectionNotNeededException.class, other, ElectionNotNeededException.class),
                outcomes(admin, ElectionType.PREFERRED, Set.of(led, other)));
        }
        // a clean shutdown moves its partitions' leadership to the other in-sync replica
        cluster.stop(preferredBroker);
        cluster.start(preferredBroker);
        try (Admin admin = Admin.create(cluster.clientProps())) {
            Conditions.waitUntil(() -> isr(admin, led).size() == 2, "the restarted broker to rejoin the ISR");
            assertNotEquals("nothing moved leadership back by itself", preferredBroker, partition(admin, led).leader().id());

            Map<TopicPartition, Class<?>> outcomes = outcomes(admin, ElectionType.PREFERRED,
                Set.of(led, other, new TopicPartition("absent", 0)));
            assertEquals(Void.class, outcomes.get(led));
            assertEquals(UnknownTopicOrPartitionException.class, outcomes.get(new TopicPartition("absent", 0)));
            Broker controller = cluster.broker(0).cluster().isController() ? cluster.broker(0) : cluster.broker(1);
            assertEquals("the answer waits until the answering controller's metadata shows the new leader", preferredBroker,
                controller.cluster().metadata().snapshot().partitionState("led", 0).orElseThrow().leader());
            Conditions.waitUntil(() -> partition(admin, led).leader().id() == preferredBroker, "the preferred leader to lead");
            assertEquals(ElectionNotNeededException.class, outcomes(admin, ElectionType.UNCLEAN, Set.of(led)).get(led));
        }
    }

    @Test(timeout = 120_000)
    public void anUncleanElectionBringsAPartitionWithoutLiveInSyncReplicasBackOnAnOutOfSyncOne() throws Exception {
        TopicPartition tp = new TopicPartition("orphaned", 0);
        int leader;
        int follower;
        try (Admin admin = Admin.create(cluster.clientProps())) {
            admin.createTopics(List.of(new NewTopic("orphaned", 1, (short) 2))).all().get(30, TimeUnit.SECONDS);
            cluster.awaitLogs("orphaned", 1);
            leader = partition(admin, tp).leader().id();
            follower = 1 - leader;
            cluster.stop(follower);
            Conditions.waitUntil(() -> isr(admin, tp).equals(List.of(leader)), "the stopped follower to leave the ISR");
        }
        cluster.stop(leader);
        cluster.start(follower);
        try (Admin admin = Admin.create(cluster.clientProps())) {
            Conditions.waitUntil(() -> partition(admin, tp).leader() == null, "the partition to go offline");
            assertEquals(Map.of(tp, PreferredLeaderNotAvailableException.class), outcomes(admin, ElectionType.PREFERRED, Set.of(tp)));

            assertEquals(Map.of(tp, Void.class), outcomes(admin, ElectionType.UNCLEAN, Set.of(tp)));
            Conditions.waitUntil(() -> partition(admin, tp).leader() != null && partition(admin, tp).leader().id() == follower,
                "the out-of-sync replica to lead");
            assertEquals(List.of(follower), isr(admin, tp));
        }
    }

    @Test(timeout = 120_000)
    public void aBrokerThatIsNotTheControllerAnswersNotControllerForEachPartition() throws Exception {
        cluster.createTopic("elsewhere", 1, Map.of());
        int notController = cluster.broker(0).cluster().isController() ? 1 : 0;
        try (RawClient client = new RawClient(cluster.broker(notController).boundPort())) {
            ElectLeadersResponse response = client.call(new ElectLeadersRequest(ElectLeadersRequest.PREFERRED, List.of(
                new ElectLeadersRequest.TopicPartitions("elsewhere", List.of(0))), 10_000), (short) 2);
            assertEquals(Errors.NONE, response.error());
            assertEquals(Errors.NOT_CONTROLLER, response.results().get(0).partitions().get(0).error());
        }
    }

    /** What became of each partition's election: Void.class for a leader elected, else the exception's class. */
    private static Map<TopicPartition, Class<?>> outcomes(Admin admin, ElectionType type, Set<TopicPartition> partitions)
        throws Exception {
        Map<TopicPartition, Optional<Throwable>> results = admin.electLeaders(type, partitions).partitions()
            .get(30, TimeUnit.SECONDS);
        Map<TopicPartition, Class<?>> outcomes = new HashMap<>();
        results.forEach((tp, error) -> outcomes.put(tp, error.<Class<?>>map(Throwable::getClass).orElse(Void.class)));
        return outcomes;
    }

    private static TopicPartitionInfo partition(Admin admin, TopicPartition tp) {
        try {
            TopicDescription topic = admin.describeTopics(List.of(tp.topic())).allTopicNames().get(30, TimeUnit.SECONDS)
                .get(tp.topic());
            return topic.partitions().get(tp.partition());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static List<Integer> isr(Admin admin, TopicPartition tp) {
        return partition(admin, tp).isr().stream().map(n -> n.id()).toList();
    }
}
