package io.millrace.broker.cluster;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.common.TopicPartition;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;

/** The election rules on their own, and the conditions every election write carries. */
public class LeaderElectionTest {

    private static final TopicPartition TP = new TopicPartition("t", 0);

    private final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();
    private final Brokers brokers = new Brokers(zookeeper);

    @Rule
    public final RuleChain rules = RuleChain.outerRule(zookeeper).around(brokers);

    @Test
    public void failoverTakesTheFirstLiveInSyncReplicaInReplicaOrderAndNeverOneShuttingDown() {
        PartitionState state = new PartitionState(List.of(1, 2, 3, 4), 1, 7, List.of(4, 3, 1, 2), 5);
        LeaderElection elected = LeaderElection.failover(TP, state, Set.of(2, 3, 4), Set.of(), false).orElseThrow();
        assertEquals(2, elected.leader());
        assertEquals(8, elected.leaderEpoch());
        assertEquals(List.of(4, 3, 2), elected.isr());
        assertEquals(3, LeaderElection.failover(TP, state, Set.of(2, 3, 4), Set.of(2), false).orElseThrow().leader());
        assertEquals(Optional.empty(), LeaderElection.failover(TP, state, Set.of(1, 2, 3, 4), Set.of(), false));
    }

    @Test
    public void inSyncFollowersThatAreNotLiveLeaveTheIsrWhileTheLeaderStays() {
        PartitionState state = new PartitionState(List.of(1, 2, 3, 4), 1, 7, List.of(4, 3, 1, 2), 5);
        LeaderElection shrunk = LeaderElection.failover(TP, state, Set.of(1, 2), Set.of(), false).orElseThrow();
        assertEquals(1, shrunk.leader());
        assertEquals(List.of(1, 2), shrunk.isr());
        assertEquals(8, shrunk.leaderEpoch());
        assertTrue(!shrunk.unclean());
        PartitionState outOfSyncDead = new PartitionState(List.of(1, 2, 3), 1, 7, List.of(1, 2), 5);
        assertEquals("a dead replica outside the ISR changes nothing", Optional.empty(),
            LeaderElection.failover(TP, outOfSyncDead, Set.of(1, 2), Set.of(), false));
    }

    @Test
    public void withoutALiveInSyncReplicaThePartitionGoesOfflineOnceOrUncleanWhenAllowed() {
        PartitionState state = new PartitionState(List.of(1, 2, 3), 1, 2, List.of(1), 0);
        LeaderElection offline = LeaderElection.failover(TP, state, Set.of(2, 3), Set.of(), false).orElseThrow();
        assertEquals(-1, offline.leader());
        assertEquals(List.of(1), offline.isr());
        PartitionState nowOffline = new PartitionState(List.of(1, 2, 3), -1, 3, List.of(1), 1);
        assertEquals("already offline", Optional.empty(), LeaderElection.failover(TP, nowOffline, Set.of(2, 3), Set.of(), false));
        LeaderElection unclean = LeaderElection.failover(TP, nowOffline, Set.of(3, 2), Set.of(), true).orElseThrow();
        assertEquals(2, unclean.leader());
        assertEquals(List.of(2), unclean.isr());
        assertTrue(unclean.unclean());
        assertEquals("the last in-sync replica returns", 1,
            LeaderElection.failover(TP, nowOffline, Set.of(1, 2), Set.of(), true).orElseThrow().leader());
    }

    @Test
    public void preferredAndControlledShutdownElectionsNeedAnotherLiveInSyncReplica() {
        PartitionState state = new PartitionState(List.of(1, 2, 3), 2, 4, List.of(2, 3), 0);
        assertEquals("1 is not in sync", Optional.empty(), LeaderElection.preferred(TP, state, Set.of(1, 2, 3), Set.of()));
        PartitionState caughtUp = new PartitionState(List.of(1, 2, 3), 2, 4, List.of(2, 3, 1), 1);
        assertEquals(1, LeaderElection.preferred(TP, caughtUp, Set.of(1, 2, 3), Set.of()).orElseThrow().leader());
        assertEquals(Optional.empty(), LeaderElection.preferred(TP, caughtUp, Set.of(1, 2, 3), Set.of(1)));

        LeaderElection moved = LeaderElection.controlledShutdown(TP, caughtUp, 2, Set.of(1, 2, 3), Set.of(2)).orElseThrow();
        assertEquals(1, moved.leader());
        assertEquals(List.of(3, 1), moved.isr());
        assertEquals(Optional.empty(), LeaderElection.controlledShutdown(TP, caughtUp, 3, Set.of(1, 2, 3), Set.of(3)));
        PartitionState alone = new PartitionState(List.of(2, 3), 2, 0, List.of(2), 0);
        assertEquals(Optional.empty(), LeaderElection.controlledShutdown(TP, alone, 2, Set.of(2, 3), Set.of(2)));
    }

    @Test
    public void anElectionFromAStaleViewOrByADeposedControllerWritesNothing() throws Exception {
        ZkCluster one = brokers.start(1);
        brokers.start(2); // so that the cluster's own controller finds nothing to elect in what this test writes
        Wait.until("broker 2", one.metadata(), s -> s.isLive(2));
        var zk = one.curator();
        zk.create().forPath(ClusterPaths.topic("t"), ClusterJson.topic(Map.of(0, List.of(1, 2))));
        zk.create().creatingParentsIfNeeded().forPath(ClusterPaths.partitionState("t", 0), ClusterJson.partitionState(1, 0, List.of(1, 2)));
        zk.setData().forPath(ClusterPaths.partitionState("t", 0), ClusterJson.partitionState(1, 0, List.of(1))); // version 1
        zk.create().forPath("/latch-of-a-controller");

        LeadershipDuty current = new LeadershipDuty(zk, 1, () -> zk.transactionOp().check().forPath("/latch-of-a-controller"),
            overrides -> false);
        PartitionState stale = new PartitionState(List.of(1, 2), 1, 0, List.of(1, 2), 0);
        assertEquals("decided from version 0", 0, current.write(List.of(new LeaderElection(TP, stale, 2, List.of(2), "test", false))));

        zk.delete().forPath("/latch-of-a-controller");
        PartitionState fresh = new PartitionState(List.of(1, 2), 1, 0, List.of(1), 1);
        assertEquals("latch gone", 0, current.write(List.of(new LeaderElection(TP, fresh, 2, List.of(2), "test", false))));
        assertEquals(new LeaderAndIsr(1, 0, List.of(1), 1), ClusterJson.parsePartitionState(
            zk.getData().forPath(ClusterPaths.partitionState("t", 0)), 1));

        zk.create().forPath("/latch-of-a-controller");
        assertEquals(1, current.write(List.of(new LeaderElection(TP, fresh, 2, List.of(2), "test", false))));
        assertEquals(new LeaderAndIsr(2, 1, List.of(2), 2), ClusterJson.parsePartitionState(
            zk.getData().forPath(ClusterPaths.partitionState("t", 0)), 2));
    }
}
