package io.millrace.broker.cluster;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.testkit.EmbeddedZooKeeper;
import io.millrace.testkit.TcpProxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;

/**
 * A broker restarted after a crash ends the ZooKeeper session its previous run recorded in the log
 * directory, instead of waiting for the server to expire it; and it ends no other session.
 */
public class PreviousSessionTest {

    /** Long enough that a restart which waited for the old session to expire could not pass. */
    private static final int SESSION_TIMEOUT_MS = 20_000;

    private final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();
    private final Brokers brokers = new Brokers(zookeeper);
    private final TemporaryFolder logDir = new TemporaryFolder();

    @Rule
    public final RuleChain rules = RuleChain.outerRule(logDir).around(zookeeper).around(brokers);

    @Test
    public void aBrokerRestartedAfterACrashEndsTheSessionItsPreviousRunRecordedAndRegistersAtOnce() throws Exception {
        try (TcpProxy link = new TcpProxy(zookeeper.port())) {
            ZkCluster crashed = brokers.create(1, SESSION_TIMEOUT_MS, Map.of(ClusterConfig.ZOOKEEPER_CONNECT_CONFIG,
                link.connectString()));
            crashed.recordSessionIn(logDir.getRoot().toPath());
            crashed.start("host1", 9091);
            ZooKeeper old = crashed.curator().getZookeeperClient().getZooKeeper();
            long oldSession = old.getSessionId();
            byte[] oldPassword = old.getSessionPasswd();
            ZkCluster observer = brokers.start(2);
            link.cut(); // as a killed process: the session is neither closed nor kept alive

            ZkCluster restarted = brokers.create(1, SESSION_TIMEOUT_MS, Map.of());
            restarted.recordSessionIn(logDir.getRoot().toPath());
            long start = System.nanoTime();
            restarted.start("host1", 9091);
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

            long newSession = sessionOf(restarted);
            assertEquals(newSession, ownerOfRegistration(observer, 1));
            assertTrue("registered after " + tookMs + " ms: it waited for the old session", tookMs < SESSION_TIMEOUT_MS / 2);
            assertEquals("the old session is over on the server", Watcher.Event.KeeperState.Expired,
                attach(oldSession, oldPassword));
            assertEquals(newSession, new PreviousSession(sessionFile()).read().orElseThrow().id());
        }
    }

    @Test
    public void itEndsTheRecordedSessionAlsoWhenZooKeeperRestartedWithTheBroker() throws Exception {
        ZkCluster crashed = brokers.create(1, SESSION_TIMEOUT_MS, Map.of());
        crashed.recordSessionIn(logDir.getRoot().toPath());
        crashed.start("host1", 9091);
        long oldSession = sessionOf(crashed);
        // As when ZooKeeper runs in the broker's JVM (the launcher, the quickstart): both go down at once,
        // and the server restores the session from its data, to expire one session timeout after it starts.
        zookeeper.stop();
        crashed.abandonSession();
        zookeeper.restart();

        ZkCluster restarted = brokers.create(1, SESSION_TIMEOUT_MS, Map.of());
        restarted.recordSessionIn(logDir.getRoot().toPath());
        long start = System.nanoTime();
        restarted.start("host1", 9091);
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertEquals(sessionOf(restarted), ownerOfRegistration(restarted, 1));
        assertTrue("registered after " + tookMs + " ms: it waited for session 0x" + Long.toHexString(oldSession),
            tookMs < SESSION_TIMEOUT_MS / 2);
    }

    @Test
    public void aRecordedSessionThatDoesNotHoldTheRegistrationIsLeftAlone() throws Exception {
        // Another client's live session, recorded in the file as if it were the broker's.
        ZooKeeper bystander = connect();
        try {
            bystander.create("/bystander", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
            new PreviousSession(sessionFile()).save(bystander.getSessionId(), bystander.getSessionPasswd());
            ZkCluster live = brokers.start(1);

            ZkCluster duplicate = brokers.create(1, 1_000, Map.of());
            duplicate.recordSessionIn(logDir.getRoot().toPath());
            // The live broker's registration outlives the wait: its session was not ended.
            assertThrows(BrokerIdConflictException.class, () -> duplicate.start("host1", 9091));

            assertEquals(sessionOf(live), ownerOfRegistration(live, 1));
            assertTrue(live.isRegistered());
            Stat stat = bystander.exists("/bystander", false);
            assertTrue("the bystander's session was ended", stat != null && stat.getEphemeralOwner() == bystander.getSessionId());
        } finally {
            bystander.close();
        }
    }

    @Test
    public void theFileIsTheOwnersAloneAndACleanShutdownDeletesIt() throws Exception {
        ZkCluster broker = brokers.create(1, SESSION_TIMEOUT_MS, Map.of());
        broker.recordSessionIn(logDir.getRoot().toPath());
        broker.start("host1", 9091);

        assertEquals(sessionOf(broker), new PreviousSession(sessionFile()).read().orElseThrow().id());
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(sessionFile());
        assertEquals(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE), permissions);

        broker.close();
        assertFalse(Files.exists(sessionFile()));
    }

    @Test
    public void anUnreadableFileIsIgnored() throws Exception {
        Files.writeString(sessionFile(), "session.id=not-hex\n");
        assertTrue(new PreviousSession(sessionFile()).read().isEmpty());
        assertFalse(new PreviousSession(sessionFile()).closeIfOwner(42L, zookeeper.connectString(), 1_000));
    }

    private Path sessionFile() {
        return logDir.getRoot().toPath().resolve(PreviousSession.FILE_NAME);
    }

    private ZooKeeper connect() throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(zookeeper.connectString(), SESSION_TIMEOUT_MS, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        assertTrue(connected.await(10, TimeUnit.SECONDS));
        return zk;
    }

    /** How the server answers a client attaching to a session: SyncConnected while it lives, Expired once it ended. */
    private Watcher.Event.KeeperState attach(long session, byte[] password) throws Exception {
        AtomicReference<Watcher.Event.KeeperState> answer = new AtomicReference<>();
        CountDownLatch answered = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(zookeeper.connectString(), SESSION_TIMEOUT_MS, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected || event.getState() == Watcher.Event.KeeperState.Expired) {
                answer.compareAndSet(null, event.getState());
                answered.countDown();
            }
        }, session, password);
        try {
            assertTrue(answered.await(10, TimeUnit.SECONDS));
            return answer.get();
        } finally {
            zk.close();
        }
    }

    private static long sessionOf(ZkCluster broker) throws Exception {
        return broker.curator().getZookeeperClient().getZooKeeper().getSessionId();
    }

    private static long ownerOfRegistration(ZkCluster via, int brokerId) throws Exception {
        Stat stat = via.curator().checkExists().forPath(ClusterPaths.broker(brokerId));
        return stat == null ? -1 : stat.getEphemeralOwner();
    }
}
