package io.millrace.broker.cluster;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.curator.framework.api.transaction.TransactionOp;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;

public class IsrWriterTest {

    private final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();
    private final Brokers brokers = new Brokers(zookeeper);

    @Rule
    public final RuleChain rules = RuleChain.outerRule(zookeeper).around(brokers);

    @Test
    public void aLeaderShrinksTheIsrButLosesToAConcurrentElection() throws Exception {
        ZkCluster one = brokers.start(1);
        // broker 2 is live, so the controller leaves the election below standing instead of taking
        // the partition offline for want of a live leader
        ZkCluster two = brokers.start(2);
        Wait.until("both brokers live", two.metadata(), s -> s.liveBrokers().size() == 2);
        IsrWriter writer = new IsrWriter(one.curator());
        // topic and state in one transaction: the controller, seeing a topic without state, would write one
        TransactionOp op = one.curator().transactionOp();
        one.curator().transaction().forOperations(
            op.create().forPath(ClusterPaths.topic("t"), ClusterJson.topic(Map.of(0, List.of(1, 2)))),
            op.create().forPath(ClusterPaths.partitions("t")),
            op.create().forPath(ClusterPaths.partition("t", 0)),
            op.create().forPath(ClusterPaths.partitionState("t", 0), ClusterJson.partitionState(1, 0, List.of(1, 2))));
        PartitionState read = writer.read("t", 0, List.of(1, 2)).orElseThrow();
        assertEquals(new PartitionState(List.of(1, 2), 1, 0, List.of(1, 2), 0), read);

        PartitionState shrunk = writer.updateIsr("t", 0, read, List.of(1)).orElseThrow();
        assertEquals(new PartitionState(List.of(1, 2), 1, 0, List.of(1), 1), shrunk);

        // The controller elects broker 2 meanwhile (say broker 1 was thought dead).
        one.curator().setData().withVersion(1).forPath(ClusterPaths.partitionState("t", 0), ClusterJson.partitionState(2, 1, List.of(2)));

        assertEquals(Optional.empty(), writer.updateIsr("t", 0, shrunk, List.of(1, 2)));
        PartitionState now = writer.read("t", 0, List.of(1, 2)).orElseThrow();
        assertEquals("the election stands", new PartitionState(List.of(1, 2), 2, 1, List.of(2), 2), now);
        ClusterSnapshot view = Wait.until("the cache sees the election", one.metadata(),
            s -> s.partitionState("t", 0).map(p -> p.leaderEpoch() == 1).orElse(false));
        assertEquals(now, view.partitionState("t", 0).orElseThrow());
    }

    @Test
    public void createsTheStateZnodeOfATopicWrittenBeforeReplicationOnce() throws Exception {
        ZkCluster one = brokers.start(1);
        IsrWriter writer = new IsrWriter(one.curator());
        one.curator().create().forPath(ClusterPaths.topic("old"), "{\"version\":1,\"partitions\":{\"0\":1}}".getBytes(StandardCharsets.UTF_8));
        PartitionState initial = writer.read("old", 0, List.of(1)).orElseThrow();
        assertEquals(PartitionState.initial(List.of(1)), initial);

        assertEquals(Optional.of(new PartitionState(List.of(1), 1, 0, List.of(1), 0)), writer.updateIsr("old", 0, initial, List.of(1)));
        assertEquals("someone else created it first", Optional.empty(), writer.updateIsr("old", 0, initial, List.of(1)));
        assertTrue(writer.read("gone", 0, List.of(1)).isEmpty());
        assertThrows(IllegalArgumentException.class, () -> writer.updateIsr("old", 0, initial, List.of(3)));
    }
}
