package io.millrace.testkit;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooKeeper;
import org.junit.Rule;
import org.junit.Test;

public class EmbeddedZooKeeperTest {

    @Rule
    public final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();

    @Test
    public void listensOnLoopbackAndKeepsPortAndDataAcrossARestart() throws Exception {
        assertEquals("127.0.0.1:" + zookeeper.port(), zookeeper.connectString());
        ZooKeeper client = connect(new CountDownLatch(1));
        client.create("/kept", new byte[] {7}, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        client.close();

        zookeeper.stop();
        zookeeper.restart();

        ZooKeeper again = connect(new CountDownLatch(1));
        assertArrayEquals(new byte[] {7}, again.getData("/kept", false, null));
        again.close();
    }

    @Test
    public void expiresASessionOnTheServer() throws Exception {
        CountDownLatch expired = new CountDownLatch(1);
        ZooKeeper client = connect(expired);
        client.create("/mine", new byte[0], Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);

        zookeeper.expireSession(client);

        assertTrue("client told its session expired", expired.await(15, TimeUnit.SECONDS));
        ZooKeeper observer = connect(new CountDownLatch(1));
        assertNull("ephemeral znode deleted", observer.exists("/mine", false));
        observer.close();
        client.close();
    }

    private ZooKeeper connect(CountDownLatch expired) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper client = new ZooKeeper(zookeeper.connectString(), 30_000, event -> {
            if (event.getState() == KeeperState.SyncConnected) {
                connected.countDown();
            } else if (event.getState() == KeeperState.Expired) {
                expired.countDown();
            }
        });
        assertTrue("connected", connected.await(15, TimeUnit.SECONDS));
        return client;
    }
}
