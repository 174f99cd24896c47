package io.millrace.broker.cluster;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.testkit.EmbeddedZooKeeper;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.CreateMode;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;

public class ClusterControllerTest {

    private final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();
    private final Brokers brokers = new Brokers(zookeeper);

    @Rule
    public final RuleChain rules = RuleChain.outerRule(zookeeper).around(brokers);

    @Test
    public void exactlyOneBrokerIsControllerAndEveryoneAgreesWhich() throws Exception {
        List<ZkCluster> all = List.of(brokers.start(1), brokers.start(2), brokers.start(3));

        ZkCluster controller = awaitSingleController(all);

        for (ZkCluster broker : all) {
            Wait.until("broker " + broker.brokerId() + " names the controller", broker.metadata(),
                s -> s.controllerId() == controller.brokerId());
        }
    }

    @Test
    public void anotherBrokerTakesOverWhenTheControllerDiesAndCarriesOutTheRequestsItLeft() throws Exception {
        List<ZkCluster> all = List.of(brokers.start(1), brokers.start(2), brokers.start(3));
        ZkCluster old = awaitSingleController(all);
        List<ZkCluster> rest = all.stream().filter(b -> b != old).toList();
        ZkCluster requester = rest.get(0);

        // As a crash looks to ZooKeeper: the session ends, nothing is handed over.
        old.curator().close();
        CompletableFuture<Void> created = requester.createTopic("after-failover", 4, Map.of());

        Wait.get(created);
        ZkCluster successor = awaitSingleController(rest);
        assertNotEquals(old.brokerId(), successor.brokerId());
        Set<Integer> holders = new TreeSet<>(requester.metadata().snapshot().topic("after-failover").orElseThrow().assignment().values());
        assertEquals(Set.of(rest.get(0).brokerId(), rest.get(1).brokerId()), holders);
    }

    @Test
    public void aNewControllerCarriesOutRequestsLeftPendingWhileThereWasNone() throws Exception {
        ZkCluster first = brokers.start(1);
        Wait.get(first.createTopic("doomed", 1, Map.of()));
        first.close();
        try (CuratorFramework requester = client()) {
            // Requests written the way any broker writes them, while no broker (so no controller) runs.
            requester.create().withMode(CreateMode.EPHEMERAL)
                .forPath(ClusterPaths.createTopicRequest("waiting"), ClusterJson.createRequest(3, Map.of("cleanup.policy", "compact")));
            requester.create().withMode(CreateMode.EPHEMERAL).forPath(ClusterPaths.deleteTopicRequest("doomed"), ClusterJson.deleteRequest());

            ZkCluster second = brokers.start(2);

            ClusterSnapshot view = Wait.until("the pending requests carried out", second.metadata(),
                s -> s.hasTopic("waiting") && !s.hasTopic("doomed"));
            assertEquals(Map.of(0, 2, 1, 2, 2, 2), view.topic("waiting").orElseThrow().assignment());
            assertEquals(Map.of("cleanup.policy", "compact"), view.topicConfig("waiting"));
            Wait.until("both requests deleted", () -> requestsLeft(requester) == 0);
        }
    }

    @Test
    public void assignsPartitionsRoundRobinOverThreeBrokers() throws Exception {
        ZkCluster requester = brokers.start(3);
        brokers.start(1);
        brokers.start(2);
        awaitSingleController(List.of(requester));
        Wait.until("three live brokers", requester.metadata(), s -> s.liveBrokers().size() == 3);

        Wait.get(requester.createTopic("spread", 7, Map.of()));

        SortedMap<Integer, Integer> assignment = requester.metadata().snapshot().topic("spread").orElseThrow().assignment();
        assertEquals(7, assignment.size());
        for (int p = 0; p + 1 < 7; p++) {
            assertEquals("partition " + (p + 1) + " goes to the broker after partition " + p + "'s in " + assignment,
                assignment.get(p) % 3 + 1, (int) assignment.get(p + 1));
        }
        List<Integer> counts = List.copyOf(PartitionAssigner.countsByBroker(assignment).values());
        assertEquals(3, counts.size());
        assertEquals(7, counts.stream().mapToInt(Integer::intValue).sum());
        assertTrue(counts.toString(), counts.stream().allMatch(c -> c == 2 || c == 3));
    }

    @Test
    public void marksRequestsItCannotCarryOutWithTheReason() throws Exception {
        ZkCluster broker = brokers.start(1);
        Wait.get(broker.createTopic("taken", 1, Map.of()));
        try (CuratorFramework requester = client()) {
            // What an older or careless requester might write: the controller must check it again.
            create(requester, ClusterPaths.createTopicRequest("taken"), ClusterJson.createRequest(2, Map.of()));
            create(requester, ClusterPaths.createTopicRequest("none"), ClusterJson.createRequest(0, Map.of()));
            create(requester, ClusterPaths.createTopicRequest("junk"), "]".getBytes());
            create(requester, ClusterPaths.deleteTopicRequest("missing"), ClusterJson.deleteRequest());

            assertEquals(AdminError.TOPIC_ALREADY_EXISTS.name(), awaitVerdict(requester, ClusterPaths.createTopicRequest("taken")));
            assertEquals(AdminError.INVALID_PARTITIONS.name(), awaitVerdict(requester, ClusterPaths.createTopicRequest("none")));
            assertEquals(AdminError.INVALID_PARTITIONS.name(), awaitVerdict(requester, ClusterPaths.createTopicRequest("junk")));
            assertEquals(AdminError.UNKNOWN_TOPIC_OR_PARTITION.name(), awaitVerdict(requester, ClusterPaths.deleteTopicRequest("missing")));
            assertEquals(1, broker.metadata().partitionCount("taken"));
            assertTrue(!broker.metadata().snapshot().hasTopic("none"));
        }
    }

    private static ZkCluster awaitSingleController(List<ZkCluster> candidates) {
        Wait.until("exactly one controller among " + candidates.stream().map(ZkCluster::brokerId).toList(),
            () -> candidates.stream().filter(ZkCluster::isController).count() == 1);
        return candidates.stream().filter(ZkCluster::isController).findFirst().orElseThrow();
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
                AdminRequest request = ClusterJson.parseRequest(AdminRequest.Kind.CREATE, "t", client.getData().forPath(path), 0, 0);
                verdict[0] = request.error();
                return verdict[0] != null;
            } catch (Exception e) {
                return false;
            }
        });
        return verdict[0];
    }

    private static int requestsLeft(CuratorFramework client) {
        try {
            return client.getChildren().forPath(ClusterPaths.CREATE_TOPIC_REQUESTS).size()
                + client.getChildren().forPath(ClusterPaths.DELETE_TOPIC_REQUESTS).size();
        } catch (Exception e) {
            return -1;
        }
    }
}
