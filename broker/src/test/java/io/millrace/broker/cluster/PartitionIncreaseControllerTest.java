package io.millrace.broker.cluster;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.common.errors.InvalidPartitionsException;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.CreateMode;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;

/** The controller's side of partition increases, with requests written straight into ZooKeeper. */
public class PartitionIncreaseControllerTest {

    private final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();
    private final Brokers brokers = new Brokers(zookeeper);

    @Rule
    public final RuleChain rules = RuleChain.outerRule(zookeeper).around(brokers);

    @Test
    public void theControllerAddsPartitionsAndKeepsTheTopicsIdentity() throws Exception {
        ZkCluster broker = brokers.start(1);
        brokers.start(2);
        Wait.until("two live brokers", broker.metadata(), s -> s.liveBrokers().size() == 2);
        Wait.get(broker.createTopic("growing", 2, Map.of()));
        TopicMetadata before = broker.metadata().snapshot().topic("growing").orElseThrow();

        Wait.get(broker.createPartitions("growing", 4, List.of(), false));

        TopicMetadata after = broker.metadata().snapshot().topic("growing").orElseThrow();
        assertEquals(4, after.partitionCount());
        assertEquals("the old partitions stay where they were", before.assignment(), after.assignment().headMap(2));
        assertEquals("same incarnation, same topic id", before.topicId(), after.topicId());
        assertTrue(broker.metadata().snapshot().partitionsAssignedTo(2).size() >= 1);
    }

    @Test
    public void aRequesterThatChecksNothingIsStillRefusedByTheController() throws Exception {
        ZkCluster broker = brokers.start(1);
        Wait.get(broker.createTopic("three", 3, Map.of()));
        try (CuratorFramework requester = client()) {
            create(requester, ClusterPaths.createPartitionsRequest("three"), ClusterJson.createPartitionsRequest(2, List.of()));
            create(requester, ClusterPaths.createPartitionsRequest("absent"), ClusterJson.createPartitionsRequest(2, List.of()));
            assertEquals(AdminError.INVALID_PARTITIONS.name(), awaitVerdict(requester, ClusterPaths.createPartitionsRequest("three")));
            assertEquals(AdminError.UNKNOWN_TOPIC_OR_PARTITION.name(),
                awaitVerdict(requester, ClusterPaths.createPartitionsRequest("absent")));
            requester.delete().forPath(ClusterPaths.createPartitionsRequest("three"));
            create(requester, ClusterPaths.createPartitionsRequest("three"), ClusterJson.createPartitionsRequest(4, List.of(List.of(9))));
            assertEquals(AdminError.INVALID_REPLICA_ASSIGNMENT.name(),
                awaitVerdict(requester, ClusterPaths.createPartitionsRequest("three")));
            assertEquals(3, broker.metadata().partitionCount("three"));
        }
    }

    @Test
    public void theRequesterRefusesALowerCountBeforeAskingTheController() throws Exception {
        ZkCluster broker = brokers.start(1);
        Wait.get(broker.createTopic("four", 4, Map.of()));
        ExecutionException e = assertThrows(ExecutionException.class,
            () -> broker.createPartitions("four", 2, List.of(), false).get());
        assertTrue(e.getCause().toString(), e.getCause() instanceof InvalidPartitionsException);
    }

    private CuratorFramework client() throws InterruptedException {
        CuratorFramework client = CuratorFrameworkFactory.newClient(zookeeper.connectString(), new RetryOneTime(100));
        client.start();
        client.blockUntilConnected();
        return client;
    }

    private static void create(CuratorFramework client, String path, byte[] data) throws Exception {
        client.create().withMode(CreateMode.EPHEMERAL).forPath(path, data);
    }

    private static String awaitVerdict(CuratorFramework client, String path) {
        String[] verdict = new String[1];
        Wait.until("a verdict on " + path, () -> {
            try {
                AdminRequest request = ClusterJson.parseRequest(AdminRequest.Kind.CREATE_PARTITIONS, "t",
                    client.getData().forPath(path), 0, 0);
                verdict[0] = request.error();
                return verdict[0] != null;
            } catch (Exception e) {
                return false;
            }
        });
        return verdict[0];
    }
}
