package io.millrace.consumer.internals;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.common.TopicPartition;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.ZooKeeper;
import org.junit.Test;

/**
 * A consumer whose ZooKeeper session expired cannot commit over the partition's new owner, neither
 * before it learns of the expiry nor after it reconnected with a new session.
 */
public class OwnershipFencingTest {

    private static final TopicPartition TP = new TopicPartition("fenced", 0);

    @Test
    public void aCommitThroughAnExpiredSessionNeverOverwritesTheNewOwnersOffset() throws Exception {
        try (EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper().start();
             CuratorFramework first = client(zookeeper);
             CuratorFramework second = client(zookeeper)) {
            GroupRegistry stale = new GroupRegistry(first, "g");
            GroupRegistry next = new GroupRegistry(second, "g");
            assertTrue(stale.claim(TP, "first-0"));
            ZooKeeper claimedOn = stale.session();
            stale.commitAsOwner(claimedOn, TP, 10);
            assertEquals(10, next.committedOffset(TP).getAsLong());

            zookeeper.expireSession(claimedOn);
            Conditions.waitUntil(() -> next.owner(TP) == null, 20_000, "the expired owner node to go");
            assertTrue(next.claim(TP, "second-0"));
            next.commitAsOwner(next.session(), TP, 20);

            expectRefused(stale, claimedOn, 15);   // before the first client has reconnected, or just after
            Conditions.waitUntil(() -> sessionOf(first) != claimedOn.getSessionId(), 30_000, "a new session");
            expectRefused(stale, claimedOn, 16);
            assertEquals("the new owner's offset stands", 20, next.committedOffset(TP).getAsLong());
            assertEquals("second-0", next.owner(TP));
        }
    }

    @Test
    public void aCommitOfAPartitionOwnedByAnotherLiveConsumerIsRefused() throws Exception {
        try (EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper().start();
             CuratorFramework first = client(zookeeper);
             CuratorFramework second = client(zookeeper)) {
            GroupRegistry owner = new GroupRegistry(first, "g");
            GroupRegistry other = new GroupRegistry(second, "g");
            assertTrue(owner.claim(TP, "first-0"));
            owner.commitAsOwner(owner.session(), TP, 7);
            expectRefused(other, other.session(), 99);
            assertEquals(7, owner.committedOffset(TP).getAsLong());
        }
    }

    private static void expectRefused(GroupRegistry registry, ZooKeeper session, long offset) {
        try {
            registry.commitAsOwner(session, TP, offset);
            fail("a commit of " + offset + " by a consumer that does not own the partition went through");
        } catch (GroupRegistryException expected) {
            assertTrue(expected.getMessage(), expected.getMessage().contains("no longer owns"));
        }
    }

    private static long sessionOf(CuratorFramework client) {
        try {
            return client.getZookeeperClient().getZooKeeper().getSessionId();
        } catch (Exception e) {
            return -1;
        }
    }

    private static CuratorFramework client(EmbeddedZooKeeper zookeeper) throws InterruptedException {
        CuratorFramework client = CuratorFrameworkFactory.newClient(zookeeper.connectString(), 6_000, 5_000,
            new ExponentialBackoffRetry(100, 3));
        client.start();
        assertTrue(client.blockUntilConnected(10, java.util.concurrent.TimeUnit.SECONDS));
        return client;
    }
}
