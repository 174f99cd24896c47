package io.millrace.broker.cluster;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;

/** The metadata cache reads replica lists and partition state znodes, and topics written before either. */
public class PartitionStateCacheTest {

    private final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();
    private final Brokers brokers = new Brokers(zookeeper);

    @Rule
    public final RuleChain rules = RuleChain.outerRule(zookeeper).around(brokers);

    @Test
    public void aTopicWrittenBeforeReplicationReadsAsItsOneBrokerLeadingInEpochZero() throws Exception {
        ZkCluster one = brokers.start(1);
        one.curator().create().forPath(ClusterPaths.topic("old"), bytes("{\"version\":1,\"partitions\":{\"0\":1,\"1\":7}}"));

        ClusterSnapshot view = Wait.until("the old topic", one.metadata(), s -> s.hasTopic("old"));
        assertEquals(new PartitionState(List.of(1), 1, 0, List.of(1), PartitionState.NO_ZNODE),
            view.partitionState("old", 0).orElseThrow());
        assertEquals(1, view.leader("old", 0));
        assertEquals("broker 7 is not live", ClusterSnapshot.NO_LEADER, view.leader("old", 1));
        assertTrue(view.partitionState("old", 2).isEmpty());
        assertEquals(List.of(7), view.topic("old").orElseThrow().replicas(1));
    }

    @Test
    public void seesStateZnodesComeChangeAndGo() throws Exception {
        ZkCluster one = brokers.start(1);
        ZkCluster two = brokers.start(2);
        Wait.until("both brokers", one.metadata(), s -> s.isLive(2));
        one.curator().create().creatingParentsIfNeeded().forPath(ClusterPaths.topic("t"),
            ClusterJson.topic(java.util.Map.of(0, List.of(1, 2))));
        one.curator().create().creatingParentsIfNeeded().forPath(ClusterPaths.partitionState("t", 0),
            ClusterJson.partitionState(2, 3, List.of(2, 1)));

        ClusterSnapshot view = Wait.until("the state", two.metadata(), s -> s.partitionState("t", 0).map(PartitionState::hasZnode).orElse(false));
        assertEquals(new PartitionState(List.of(1, 2), 2, 3, List.of(2, 1), 0), view.partitionState("t", 0).orElseThrow());
        assertEquals(2, view.leader("t", 0));
        assertEquals(1, view.topic("t").orElseThrow().assignedBroker(0));

        one.curator().setData().forPath(ClusterPaths.partitionState("t", 0), ClusterJson.partitionState(1, 4, List.of(1)));
        view = Wait.until("the new state", two.metadata(), s -> s.partitionState("t", 0).orElseThrow().leaderEpoch() == 4);
        assertEquals(new PartitionState(List.of(1, 2), 1, 4, List.of(1), 1), view.partitionState("t", 0).orElseThrow());
        assertEquals(1, view.leader("t", 0));

        // offline with no in-sync replica: with live broker 1 in the ISR the controller would elect it at once
        // (epoch 6), and the cache could skip epoch 5 altogether
        one.curator().setData().forPath(ClusterPaths.partitionState("t", 0), ClusterJson.partitionState(-1, 5, List.of()));
        view = Wait.until("offline", two.metadata(), s -> s.partitionState("t", 0).orElseThrow().leaderEpoch() == 5);
        assertEquals(ClusterSnapshot.NO_LEADER, view.leader("t", 0));

        one.curator().delete().forPath(ClusterPaths.partitionState("t", 0));
        view = Wait.until("no state znode", two.metadata(), s -> !s.partitionState("t", 0).orElseThrow().hasZnode());
        assertEquals(PartitionState.initial(List.of(1, 2)), view.partitionState("t", 0).orElseThrow());
    }

    private static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }
}
