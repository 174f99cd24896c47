package io.millrace.broker.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import io.millrace.common.TopicPartition;
import io.millrace.testkit.EmbeddedZooKeeper;
import io.millrace.testkit.MockTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.CreateMode;
import org.junit.After;
import org.junit.Before;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * Offset retention against a real ZooKeeper, with a clock the test moves (commit times are the
 * offset nodes' modification times, so the clock starts at the server's wall-clock time): a group
 * that had members expires as a whole from when it became empty, one that never had members offset
 * by offset from each commit, and nothing of a group with members of either kind or of a ZooKeeper
 * group consumer's group expires.
 */
public class OffsetRetentionTest {

    @ClassRule
    public static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();

    private static final long RETENTION_MS = 60_000;
    private static final TopicPartition P0 = new TopicPartition("t", 0);
    private static final TopicPartition P1 = new TopicPartition("t", 1);

    private CuratorFramework curator;
    private GroupNodes nodes;
    private OffsetRegistry offsets;
    private MockTime time;
    private final Set<String> busy = new java.util.HashSet<>();
    private final List<String> forgotten = new ArrayList<>();
    private OffsetRetention retention;

    @Before
    public void connect() throws Exception {
        curator = CuratorFrameworkFactory.newClient(ZOOKEEPER.connectString(), new RetryOneTime(100));
        curator.start();
        curator.blockUntilConnected();
        if (curator.checkExists().forPath(GroupNodes.CONSUMERS) != null) {
            curator.delete().deletingChildrenIfNeeded().forPath(GroupNodes.CONSUMERS);
        }
        nodes = new GroupNodes(curator, 0);
        offsets = new OffsetRegistry(curator);
        time = new MockTime(System.currentTimeMillis());
        retention = new OffsetRetention(nodes, offsets, time, RETENTION_MS, g -> !busy.contains(g), forgotten::add);
    }

    @After
    public void close() {
        curator.close();
    }

    private void commit(String group, TopicPartition tp, long offset) throws Exception {
        nodes.ensureKafkaGroup(group);
        offsets.commit(group, Map.of(tp, new OffsetRegistry.Committed(offset, "")));
    }

    private Set<TopicPartition> committed(String group) throws Exception {
        return offsets.commitTimes(group).keySet();
    }

    @Test
    public void aGroupThatHadMembersExpiresWholeOnceEmptyForTheRetention() throws Exception {
        commit("g", P0, 5);
        commit("g", P1, 7);
        long emptied = time.milliseconds() + 30_000;
        nodes.writeKafkaGroup("g", new GroupNodes.KafkaGroup("consumer", emptied));
        time.advance(RETENTION_MS + 10_000); // a minute after the commits, but not after the group emptied
        retention.run();
        assertEquals(Set.of(P0, P1), committed("g"));
        time.advance(30_000);
        retention.run();
        assertEquals(Set.of(), committed("g"));
        assertNull("the group is gone", curator.checkExists().forPath(GroupNodes.groupPath("g")));
        assertEquals(List.of("g"), forgotten);
    }

    @Test
    public void aGroupThatNeverHadMembersLosesEachOffsetARetentionAfterItsCommit() throws Exception {
        commit("standalone", P0, 1);
        Thread.sleep(1_100); // the second commit's node time is a second later, on the server's clock
        commit("standalone", P1, 2);
        long p1Time = offsets.commitTimes("standalone").get(P1);
        time.advance(p1Time - time.milliseconds() + RETENTION_MS - 500);
        retention.run();
        assertEquals(Set.of(P1), committed("standalone"));
        time.advance(1_000);
        retention.run();
        assertNull(curator.checkExists().forPath(GroupNodes.groupPath("standalone")));
    }

    private void expireAfterTenRetentions() {
        time.advance(10 * RETENTION_MS);
        retention.run();
    }

    @Test
    public void nothingExpiresWhileTheGroupHasMembersOrIsAZooKeeperGroup() throws Exception {
        commit("live", P0, 1);
        nodes.writeKafkaGroup("live", new GroupNodes.KafkaGroup("consumer", 1));
        busy.add("live"); // members on this coordinator
        commit("zk", P0, 1);
        curator.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL)
            .forPath(GroupNodes.idsPath("zk") + "/c1", new byte[0]);
        // the ZooKeeper group consumer's own commits carry no kafka-group node: they never expire
        curator.create().creatingParentsIfNeeded().forPath("/millrace/consumers/paper/offsets/t/0", "3".getBytes());
        commit("marked", P0, 1);
        try (CuratorFramework other = CuratorFrameworkFactory.newClient(ZOOKEEPER.connectString(), new RetryOneTime(100))) {
            other.start();
            other.blockUntilConnected();
            new GroupNodes(other, 1).createMarker("marked"); // members on another coordinator
            time.advance(10 * RETENTION_MS);
            retention.run();
        }
        for (String group : List.of("live", "zk", "paper", "marked")) {
            assertEquals(group, Set.of(P0), committed(group));
        }
    }
}
