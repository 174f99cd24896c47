package io.millrace.broker.tools;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.cluster.ClusterPaths;
import io.millrace.broker.cluster.ClusterSnapshot;
import io.millrace.broker.cluster.MetadataListener;
import io.millrace.broker.cluster.PartitionState;
import io.millrace.testkit.Conditions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/**
 * Three brokers with a topic of three replicas per partition, written to ZooKeeper as the
 * controller writes one: Metadata, {@code topics --describe} and a broker's shutdown follow its
 * partitions' state.
 */
public class ReplicatedTopicsTest {

    private LocalCluster cluster;

    @Before
    public void startClusterWithAReplicatedTopic() throws Exception {
        cluster = LocalCluster.start(3, Map.of());
        CuratorFramework zk = cluster.broker(1).cluster().curator();
        // partition 1's third replica is on broker 3, which never runs: its ISR stays short of its
        // replicas (a follower that runs would catch up and join it)
        zk.transaction().forOperations(
            zk.transactionOp().create().forPath(ClusterPaths.topicConfig("replicated"), json("{\"version\":1,\"config\":{}}")),
            zk.transactionOp().create().forPath(ClusterPaths.topic("replicated"),
                json("{\"version\":1,\"partitions\":{\"0\":[0,1,2],\"1\":[1,2,3]}}")),
            zk.transactionOp().create().forPath(ClusterPaths.partitions("replicated")),
            zk.transactionOp().create().forPath(ClusterPaths.partition("replicated", 0)),
            zk.transactionOp().create().forPath(ClusterPaths.partitionState("replicated", 0),
                json("{\"version\":1,\"leader\":0,\"leader_epoch\":0,\"isr\":[0,1,2]}")),
            zk.transactionOp().create().forPath(ClusterPaths.partition("replicated", 1)),
            zk.transactionOp().create().forPath(ClusterPaths.partitionState("replicated", 1),
                json("{\"version\":1,\"leader\":1,\"leader_epoch\":3,\"isr\":[1,2]}")));
        for (int id = 0; id < 3; id++) {
            int broker = id;
            Conditions.waitUntil(() -> cluster.broker(broker).cluster().metadata().snapshot().partitionState("replicated", 1)
                .map(PartitionState::hasZnode).orElse(false), "broker " + id + " sees the partition states");
        }
    }

    @After
    public void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    public void describeShowsLeaderReplicasAndInSyncReplicas() throws Exception {
        Result described = run("--bootstrap-server", cluster.bootstrapServers(), "--describe", "--topic", "replicated");
        assertEquals(described.err(), 0, described.code());
        assertEquals("Topic: replicated\tPartitionCount: 2\tReplicationFactor: 3\tConfigs: \n"
            + "\tTopic: replicated\tPartition: 0\tLeader: 0\tReplicas: 0,1,2\tIsr: 0,1,2\n"
            + "\tTopic: replicated\tPartition: 1\tLeader: 1\tReplicas: 1,2,3\tIsr: 1,2\tOffline: 3\n", described.out());

        Result tooMany = run("--bootstrap-server", cluster.bootstrapServers(), "--create", "--topic", "wide",
            "--replication-factor", "4");
        assertEquals(1, tooMany.code());
        assertTrue(tooMany.err(), tooMany.err().contains("INVALID_REPLICATION_FACTOR"));
    }

    @Test
    public void createAndAlterPlaceEachPartitionOnTheReplicasGiven() throws Exception {
        String server = cluster.bootstrapServers();
        Result created = run("--bootstrap-server", server, "--create", "--topic", "placed", "--replica-assignment", "1:0,0:2");
        assertEquals(created.err(), 0, created.code());
        Result grown = run("--bootstrap-server", server, "--alter", "--topic", "placed", "--partitions", "3",
            "--replica-assignment", "1:0,0:2,2:1");
        assertEquals(grown.err(), 0, grown.code());
        Conditions.waitUntil(() -> cluster.broker(0).cluster().metadata().snapshot().partitionCount("placed") == 3,
            "the third partition");
        Result described = run("--bootstrap-server", server, "--describe", "--topic", "placed");
        assertEquals("Topic: placed\tPartitionCount: 3\tReplicationFactor: 2\tConfigs: \n"
            + "\tTopic: placed\tPartition: 0\tLeader: 1\tReplicas: 1,0\tIsr: 1,0\n"
            + "\tTopic: placed\tPartition: 1\tLeader: 0\tReplicas: 0,2\tIsr: 0,2\n"
            + "\tTopic: placed\tPartition: 2\tLeader: 2\tReplicas: 2,1\tIsr: 2,1\n", described.out());
    }

    @Test
    public void aBrokerShuttingDownHandsItsLeadershipsOverBeforeItLeaves() throws Exception {
        CompletableFuture<ClusterSnapshot> moved = new CompletableFuture<>();
        MetadataListener watcher = (previous, current) -> current.partitionState("replicated", 0)
            .filter(p -> p.leader() != 0).ifPresent(p -> moved.complete(current));
        cluster.broker(1).cluster().metadata().addListener(watcher);

        cluster.stopBroker(0);

        ClusterSnapshot first = moved.get(15, TimeUnit.SECONDS);
        assertTrue("moved while broker 0 was still registered", first.isLive(0));
        assertEquals(new PartitionState(List.of(0, 1, 2), 1, 1, List.of(1, 2), 1),
            first.partitionState("replicated", 0).orElseThrow());
        Result described = run("--bootstrap-server", cluster.bootstrapServers(), "--describe", "--topic", "replicated");
        assertTrue(described.out(), described.out().contains("Partition: 0\tLeader: 1\tReplicas: 0,1,2\tIsr: 1,2\tOffline: 0\n"));
    }

    private record Result(int code, String out, String err) {
    }

    private static Result run(String... args) throws InterruptedException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = TopicsCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static byte[] json(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
