package io.millrace.broker.cluster;

import io.millrace.common.TopicPartition;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.millrace.testkit.EmbeddedZooKeeper;
import io.millrace.testkit.TcpProxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.state.ConnectionState;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;

public class MetadataCacheTest {

    private final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();
    private final Brokers brokers = new Brokers(zookeeper);

    @Rule
    public final RuleChain rules = RuleChain.outerRule(zookeeper).around(brokers);

    @Test
    public void seesBrokersComeAndGo() throws Exception {
        ZkCluster first = brokers.start(1);
        assertEquals(List.of(1), ids(first.metadata().liveBrokers()));

        ZkCluster second = brokers.start(2);
        ClusterSnapshot both = Wait.until("broker 1 sees broker 2", first.metadata(), s -> s.isLive(2));
        BrokerInfo info = both.broker(2).orElseThrow();
        assertEquals("host2", info.host());
        assertEquals(9092, info.port());
        assertEquals(List.of(1, 2), ids(both.liveBrokers()));

        second.close();
        Wait.until("broker 1 sees broker 2 go", first.metadata(), s -> !s.isLive(2));
        assertEquals(List.of(1), ids(first.metadata().liveBrokers()));
    }

    @Test
    public void answersTopicsPartitionsConfigsLeadersAndTheController() throws Exception {
        ZkCluster one = brokers.start(1);
        ZkCluster two = brokers.start(2);
        Wait.until("broker 1 sees both", one.metadata(), s -> s.liveBrokers().size() == 2);
        Wait.get(one.createTopic("clicks", 4, Map.of("retention.ms", "3600000")));

        ClusterSnapshot view = Wait.until("broker 2 sees the topic", two.metadata(), s -> s.hasTopic("clicks"));
        assertEquals(Map.of("retention.ms", "3600000"), view.topicConfig("clicks"));
        assertEquals(4, view.partitionCount("clicks"));
        assertEquals(0, view.partitionCount("nothing"));
        assertTrue(view.topics().contains("clicks"));
        for (int p = 0; p < 4; p++) {
            int assigned = view.topic("clicks").orElseThrow().assignedBroker(p);
            assertEquals(assigned, view.leader("clicks", p));
        }
        assertEquals(ClusterSnapshot.NO_LEADER, view.leader("clicks", 4));
        int controller = Wait.until("a controller", two.metadata(), s -> s.controllerId() != ClusterSnapshot.NO_CONTROLLER).controllerId();
        assertTrue("controller " + controller, controller == 1 || controller == 2);
    }

    @Test
    public void reportsNoLeaderForPartitionsWhoseBrokerIsNotLive() throws Exception {
        ZkCluster one = brokers.start(1);
        ZkCluster two = brokers.start(2);
        Wait.until("broker 1 sees both", one.metadata(), s -> s.liveBrokers().size() == 2);
        Wait.get(one.createTopic("views", 4, Map.of()));
        TopicMetadata topic = one.metadata().snapshot().topic("views").orElseThrow();
        assertEquals(Map.of(1, 2, 2, 2), PartitionAssigner.countsByBroker(topic.assignment()));

        two.close();

        ClusterSnapshot view = Wait.until("broker 1 sees broker 2 go", one.metadata(), s -> !s.isLive(2));
        assertEquals(4, view.partitionCount("views"));
        for (int p = 0; p < 4; p++) {
            int expected = topic.assignedBroker(p) == 1 ? 1 : ClusterSnapshot.NO_LEADER;
            assertEquals("partition " + p, expected, view.leader("views", p));
        }
    }

    @Test
    public void snapshotsDoNotChangeOnceTaken() throws Exception {
        ZkCluster one = brokers.start(1);
        ClusterSnapshot before = one.metadata().snapshot();

        Wait.get(one.createTopic("later", 1, Map.of()));

        assertFalse(before.hasTopic("later"));
        assertTrue(one.metadata().snapshot().hasTopic("later"));
    }

    @Test
    public void tellsAssignmentListenersWhatTheirBrokerGainsAndLoses() throws Exception {
        ZkCluster one = brokers.start(1);
        Wait.get(one.createTopic("existing", 2, Map.of()));
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        one.metadata().addAssignmentListener(1, new PartitionAssignmentListener() {
            @Override
            public void onPartitionsAssigned(SortedSet<TopicPartition> partitions, ClusterSnapshot snapshot) {
                events.add("+" + partitions);
            }

            @Override
            public void onPartitionsUnassigned(SortedSet<TopicPartition> partitions, ClusterSnapshot snapshot) {
                events.add("-" + partitions);
            }
        });
        assertEquals("+[existing-0, existing-1]", events.poll(15, TimeUnit.SECONDS));

        Wait.get(one.createTopic("fresh", 1, Map.of()));
        assertEquals("+[fresh-0]", events.poll(15, TimeUnit.SECONDS));
        Wait.get(one.deleteTopic("existing"));
        assertEquals("-[existing-0, existing-1]", events.poll(15, TimeUnit.SECONDS));
        Wait.get(one.deleteTopic("fresh"));
        assertEquals("-[fresh-0]", events.poll(15, TimeUnit.SECONDS));
        Wait.get(one.createTopic("fresh", 1, Map.of()));
        assertEquals("a topic created again is new to the log layer", "+[fresh-0]", events.poll(15, TimeUnit.SECONDS));
    }

    @Test
    public void leavesOutZnodesItCannotReadAndKeepsTheRest() throws Exception {
        ZkCluster one = brokers.start(1);
        Wait.get(one.createTopic("good", 1, Map.of()));

        one.curator().create().forPath(ClusterPaths.topic("bad"), "{not json".getBytes(StandardCharsets.UTF_8));
        one.curator().setData().forPath(ClusterPaths.topic("good"), "{\"version\":1,\"partitions\":{\"0\":1,\"1\":1}}".getBytes(StandardCharsets.UTF_8));

        Wait.until("the good topic's change", one.metadata(), s -> s.partitionCount("good") == 2);
        assertFalse(one.metadata().snapshot().hasTopic("bad"));
    }

    @Test
    public void seesATopicRecreatedWhileItWasDisconnected() throws Exception {
        recreateTopicWhilePartitioned(30_000, ConnectionState.SUSPENDED);
    }

    @Test
    public void seesATopicRecreatedWhileItHadNoSession() throws Exception {
        recreateTopicWhilePartitioned(1_000, ConnectionState.LOST);
    }

    /**
     * Cuts broker 2 off, deletes a topic and creates it again with more partitions (its znode is
     * back at version 0), heals, and expects broker 2 to see the new topic: ZooKeeper does not
     * replay missed events to persistent watches, and CuratorCache compares versions only.
     */
    private void recreateTopicWhilePartitioned(int sessionTimeoutMs, ConnectionState cutOff) throws Exception {
        ZkCluster writer = brokers.start(1);
        try (TcpProxy link = new TcpProxy(zookeeper.port())) {
            ZkCluster partitioned = brokers.create(2, sessionTimeoutMs, Map.of(ClusterConfig.ZOOKEEPER_CONNECT_CONFIG, link.connectString()));
            partitioned.start("host2", 9092);
            Wait.get(writer.createTopic("recreated", 1, Map.of()));
            Wait.until("broker 2 sees the topic", partitioned.metadata(), s -> s.hasTopic("recreated"));
            CountDownLatch reached = new CountDownLatch(1);
            partitioned.curator().getConnectionStateListenable().addListener((c, state) -> {
                if (state == cutOff) {
                    reached.countDown();
                }
            });

            link.cut();
            assertTrue("broker 2 " + cutOff, reached.await(15, TimeUnit.SECONDS));
            Wait.get(writer.deleteTopic("recreated"));
            Wait.get(writer.createTopic("recreated", 3, Map.of()));
            link.heal();

            Wait.until("broker 2 sees the new topic", partitioned.metadata(), s -> s.partitionCount("recreated") == 3);
            Wait.until("broker 2 registered", writer.metadata(), s -> s.isLive(2));
            partitioned.close(); // while its link still works, so closing its session is quick
        }
    }

    private static List<Integer> ids(List<BrokerInfo> brokers) {
        List<Integer> ids = new ArrayList<>();
        brokers.forEach(b -> ids.add(b.id()));
        return ids;
    }
}
