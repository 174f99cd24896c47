package io.millrace.broker.cluster;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.millrace.testkit.EmbeddedZooKeeper;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.zookeeper.CreateMode;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;

/**
 * The controller's replica placement and leader elections, against an embedded ZooKeeper.
 * Topics with more than one replica are written straight to ZooKeeper (a creation request, or
 * the topic and state znodes), as the requesting side refuses them until followers replicate.
 */
public class LeaderElectionControllerTest {

    private final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();
    private final Brokers brokers = new Brokers(zookeeper);

    @Rule
    public final RuleChain rules = RuleChain.outerRule(zookeeper).around(brokers);

    @Test
    public void createsReplicatedTopicsWithTheFirstReplicaLeadingEveryReplicaInSync() throws Exception {
        ZkCluster one = brokers.start(1);
        brokers.start(2);
        brokers.start(3);
        Wait.until("three brokers", one.metadata(), s -> s.liveBrokers().size() == 3);
        one.curator().create().withMode(CreateMode.EPHEMERAL)
            .forPath(ClusterPaths.createTopicRequest("replicated"), ClusterJson.createRequest(6, 3, Map.of()));

        ClusterSnapshot view = Wait.until("the topic's states", one.metadata(),
            s -> s.hasTopic("replicated") && allStates(s, "replicated", PartitionState::hasZnode));
        assertEquals(3, view.topic("replicated").orElseThrow().replicationFactor());
        for (int p = 0; p < 6; p++) {
            PartitionState state = view.partitionState("replicated", p).orElseThrow();
            assertEquals(3, state.replicas().stream().distinct().count());
            assertEquals(new PartitionState(state.replicas(), state.replicas().get(0), 0, state.replicas(), 0), state);
            assertEquals(state.replicas().get(0).intValue(), view.leader("replicated", p));
        }
        assertEquals("every broker leads two", Map.of(1, "2/6", 2, "2/6", 3, "2/6"),
            PartitionAssigner.loadByBroker(view.topic("replicated").orElseThrow().replicas()));
    }

    @Test
    public void refusesMoreReplicasThanLiveBrokers() throws Exception {
        ZkCluster one = brokers.start(1);
        one.curator().create().withMode(CreateMode.EPHEMERAL)
            .forPath(ClusterPaths.createTopicRequest("too-many"), ClusterJson.createRequest(1, 2, Map.of()));
        Wait.until("the verdict", () -> verdict(one, ClusterPaths.createTopicRequest("too-many")).contains("INVALID_REPLICATION_FACTOR"));
        assertTrue(Wait.failure(one.createTopic("gated", 1, 2, Map.of(), Wait.TIMEOUT)) instanceof InvalidReplicationFactorException);
    }

    @Test
    public void electsTheNextInSyncReplicaWhenTheLeaderDiesWithTheEpochIncremented() throws Exception {
        Map<Integer, ZkCluster> live = start(1, 2, 3);
        writeTopic(live.get(1), "t", List.of(2, 3, 1), 2, 4, List.of(2, 3, 1));

        live.get(2).abandonSession();

        PartitionState state = awaitState(live.get(1), "t", s -> s.leaderEpoch() == 5);
        assertEquals(new PartitionState(List.of(2, 3, 1), 3, 5, List.of(3, 1), state.zkVersion()), state);
    }

    @Test
    public void aPartitionGoesOfflineWithoutLiveInSyncReplicasAndReturnsWithOne() throws Exception {
        Map<Integer, ZkCluster> live = start(1, 2, 3);
        writeTopic(live.get(1), "t", List.of(2, 3), 2, 0, List.of(2, 3));

        live.get(2).abandonSession();
        awaitState(live.get(1), "t", s -> s.leader() == 3 && s.leaderEpoch() == 1 && s.isr().equals(List.of(3)));
        live.get(3).abandonSession();
        PartitionState offline = awaitState(live.get(1), "t", s -> s.leaderEpoch() == 2);
        assertEquals("offline; the last in-sync replica keeps its claim", new PartitionState(List.of(2, 3), -1, 2, List.of(3),
            offline.zkVersion()), offline);
        assertEquals(ClusterSnapshot.NO_LEADER, live.get(1).metadata().snapshot().leader("t", 0));

        ZkCluster two = brokers.start(2);
        Wait.until("broker 2 back", live.get(1).metadata(), s -> s.isLive(2));
        assertEquals("an out-of-sync replica does not lead", -1, live.get(1).metadata().snapshot().partitionState("t", 0)
            .orElseThrow().leader());

        brokers.start(3);
        PartitionState back = awaitState(two, "t", s -> s.leader() == 3);
        assertEquals(3, back.leaderEpoch());
        assertEquals(List.of(3), back.isr());
    }

    @Test
    public void oneReplicaPartitionsGoOfflineWithTheirBrokerAndComeBackWithIt() throws Exception {
        Map<Integer, ZkCluster> live = start(1, 2);
        Wait.get(live.get(1).createTopic("single", 4, Map.of()));
        live.get(2).abandonSession();
        ClusterSnapshot view = Wait.until("broker 2's partitions offline", live.get(1).metadata(),
            s -> allStates(s, "single", p -> p.leader() != 2));
        for (int p = 0; p < 4; p++) {
            PartitionState state = view.partitionState("single", p).orElseThrow();
            assertEquals(state.replicas().get(0) == 1 ? 1 : -1, state.leader());
        }
        brokers.start(2);
        view = Wait.until("broker 2 leads its partitions again", live.get(1).metadata(),
            s -> allStates(s, "single", p -> p.leader() == p.replicas().get(0)));
        for (int p = 0; p < 4; p++) {
            PartitionState state = view.partitionState("single", p).orElseThrow();
            assertEquals("epoch " + state, state.leader() == 2 ? 2 : 0, state.leaderEpoch());
        }
    }

    @Test
    public void aTopicWrittenBeforeReplicationGetsItsStateZnodeAtItsFirstElection() throws Exception {
        Map<Integer, ZkCluster> live = start(1, 2);
        live.get(1).curator().create().forPath(ClusterPaths.topic("old"),
            "{\"version\":1,\"partitions\":{\"0\":2,\"1\":1}}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        Wait.until("the old topic", live.get(1).metadata(), s -> s.leader("old", 0) == 2);

        live.get(2).abandonSession();
        PartitionState offline = awaitState(live.get(1), "old", s -> true);
        assertEquals(new PartitionState(List.of(2), -1, 1, List.of(2), 0), offline);
        assertFalse("partition 1 keeps its leader and needs no znode",
            live.get(1).metadata().snapshot().partitionState("old", 1).orElseThrow().hasZnode());

        brokers.start(2);
        assertEquals(new PartitionState(List.of(2), 2, 2, List.of(2), 1), awaitState(live.get(1), "old", s -> s.leader() == 2));
    }

    @Test
    public void topicsWithMoreStatesThanOneTransactionHoldsAreCreatedAndDeletedWhole() throws Exception {
        ZkCluster one = start(1, 2).get(1);
        int partitions = 2 * TopicZnodes.PARTITIONS_PER_TRANSACTION + 100;
        Wait.get(one.createTopic("wide", partitions, Map.of()));
        Wait.until("every state znode", one.metadata(), s -> allStates(s, "wide", PartitionState::hasZnode));
        assertEquals(partitions, one.curator().getChildren().forPath(ClusterPaths.partitions("wide")).size());

        Wait.get(one.deleteTopic("wide"));
        assertEquals(null, one.curator().checkExists().forPath(ClusterPaths.topic("wide")));
        Wait.get(one.createTopic("wide", 1, Map.of()));
        assertEquals(List.of("0"), one.curator().getChildren().forPath(ClusterPaths.partitions("wide")));
    }

    @Test
    public void uncleanElectionBringsAPartitionBackWhenTheTopicAllowsIt() throws Exception {
        Map<Integer, ZkCluster> live = start(1, 2, 3);
        live.get(2).abandonSession();
        Wait.until("broker 2 gone", live.get(1).metadata(), s -> !s.isLive(2));
        writeTopic(live.get(1), "t", List.of(2, 3), -1, 6, List.of(2));
        awaitState(live.get(1), "t", s -> s.leaderEpoch() == 6);
        assertEquals(-1, live.get(1).metadata().snapshot().partitionState("t", 0).orElseThrow().leader());

        Wait.get(live.get(1).alterTopicConfig("t", current -> Map.of("unclean.leader.election.enable", "true")));

        PartitionState state = awaitState(live.get(1), "t", s -> s.leaderEpoch() == 7);
        assertEquals(new PartitionState(List.of(2, 3), 3, 7, List.of(3), state.zkVersion()), state);
    }

    @Test
    public void controlledShutdownMovesLeadershipToAnotherInSyncReplica() throws Exception {
        Map<Integer, ZkCluster> live = start(1, 2, 3);
        writeTopic(live.get(1), "a", List.of(2, 1, 3), 2, 0, List.of(2, 1, 3));
        writeTopic(live.get(1), "b", List.of(2, 3), 2, 3, List.of(2));
        writeTopic(live.get(1), "c", List.of(1, 2), 1, 0, List.of(1, 2));
        Wait.until("broker 2 sees the topics", live.get(2).metadata(), s -> s.partitionState("c", 0).map(PartitionState::hasZnode)
            .orElse(false));

        assertTrue(live.get(2).controlledShutdown());

        ClusterSnapshot view = live.get(1).metadata().snapshot();
        assertEquals(new PartitionState(List.of(2, 1, 3), 1, 1, List.of(1, 3), 1), view.partitionState("a", 0).orElseThrow());
        assertEquals("no other in-sync replica: it stays", 2, view.partitionState("b", 0).orElseThrow().leader());
        assertEquals("led by another", 1, view.partitionState("c", 0).orElseThrow().leader());
        assertEquals(0, view.partitionState("c", 0).orElseThrow().leaderEpoch());
    }

    @Test
    public void aBrokerWithNothingToHandOverShutsDownAtOnce() throws Exception {
        Map<Integer, ZkCluster> live = start(1);
        Wait.get(live.get(1).createTopic("alone", 2, Map.of()));
        long start = System.nanoTime();
        assertTrue(live.get(1).controlledShutdown());
        assertTrue((System.nanoTime() - start) / 1_000_000 < 1_000);
        assertFalse(live.get(1).metadata().snapshot().shuttingDown().contains(1));
    }

    @Test
    public void leadershipReturnsToThePreferredReplicaOnceItIsBackInSync() throws Exception {
        Map<Integer, ZkCluster> live = new HashMap<>();
        for (int id : new int[] {1, 2, 3}) {
            ZkCluster cluster = brokers.create(id, Brokers.DEFAULT_SESSION_TIMEOUT_MS,
                Map.of(ClusterConfig.LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS_CONFIG, 1));
            cluster.start("host" + id, 9090 + id);
            live.put(id, cluster);
        }
        writeTopic(live.get(1), "t", List.of(2, 3), 2, 0, List.of(2, 3));
        live.get(2).abandonSession();
        PartitionState moved = awaitState(live.get(1), "t", s -> s.leader() == 3);
        brokers.start(2);
        Wait.until("broker 2 back", live.get(1).metadata(), s -> s.isLive(2));

        // The leader takes broker 2 back into the ISR once it has caught up.
        new IsrWriter(live.get(1).curator()).updateIsr("t", 0, moved, List.of(3, 2)).orElseThrow();

        PartitionState state = awaitState(live.get(1), "t", s -> s.leader() == 2);
        assertEquals(new PartitionState(List.of(2, 3), 2, 2, List.of(3, 2), state.zkVersion()), state);
    }

    private Map<Integer, ZkCluster> start(int... ids) throws Exception {
        Map<Integer, ZkCluster> live = new HashMap<>();
        for (int id : ids) {
            live.put(id, brokers.start(id));
        }
        Wait.until("every broker", live.get(ids[0]).metadata(), s -> s.liveBrokers().size() == ids.length);
        return live;
    }

    /** A one-partition topic written as the controller would have left it. */
    private static void writeTopic(ZkCluster via, String topic, List<Integer> replicas, int leader, int epoch, List<Integer> isr)
        throws Exception {
        via.curator().transaction().forOperations(
            via.curator().transactionOp().create().forPath(ClusterPaths.topicConfig(topic), ClusterJson.topicConfig(Map.of())),
            via.curator().transactionOp().create().forPath(ClusterPaths.topic(topic), ClusterJson.topic(Map.of(0, replicas))),
            via.curator().transactionOp().create().forPath(ClusterPaths.partitions(topic)),
            via.curator().transactionOp().create().forPath(ClusterPaths.partition(topic, 0)),
            via.curator().transactionOp().create().forPath(ClusterPaths.partitionState(topic, 0),
                ClusterJson.partitionState(leader, epoch, isr)));
    }

    private static PartitionState awaitState(ZkCluster via, String topic, Predicate<PartitionState> condition) {
        return Wait.until(topic + "-0's state", via.metadata(),
            s -> s.partitionState(topic, 0).filter(PartitionState::hasZnode).map(condition::test).orElse(false))
            .partitionState(topic, 0).orElseThrow();
    }

    private static boolean allStates(ClusterSnapshot snapshot, String topic, Predicate<PartitionState> condition) {
        int count = snapshot.partitionCount(topic);
        for (int p = 0; p < count; p++) {
            if (!condition.test(snapshot.partitionState(topic, p).orElseThrow())) {
                return false;
            }
        }
        return count > 0;
    }

    private static String verdict(ZkCluster via, String path) {
        try {
            return new String(via.curator().getData().forPath(path), java.nio.charset.StandardCharsets.UTF_8);
        } catch (Exception e) {
            return "";
        }
    }
}
