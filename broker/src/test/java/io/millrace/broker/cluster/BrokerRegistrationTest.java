package io.millrace.broker.cluster;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.millrace.testkit.EmbeddedZooKeeper;
import io.millrace.testkit.TcpProxy;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.test.KillSession;
import org.apache.zookeeper.data.Stat;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;

public class BrokerRegistrationTest {

    private final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();
    private final Brokers brokers = new Brokers(zookeeper);

    @Rule
    public final RuleChain rules = RuleChain.outerRule(zookeeper).around(brokers);

    @Test
    public void registersHostPortRackAndTimestampInAnEphemeralZnode() throws Exception {
        ZkCluster broker = brokers.create(1, Brokers.DEFAULT_SESSION_TIMEOUT_MS, Map.of(ClusterConfig.BROKER_RACK_CONFIG, "rack-a"));
        broker.start("broker1.example", 9092);

        Stat stat = new Stat();
        JsonNode json = new ObjectMapper().readTree(broker.curator().getData().storingStatIn(stat).forPath("/millrace/brokers/ids/1"));
        assertEquals("broker1.example", json.get("host").asText());
        assertEquals(9092, json.get("port").asInt());
        assertEquals("rack-a", json.get("rack").asText());
        assertEquals(brokers.time.milliseconds(), json.get("timestamp").asLong());
        assertEquals(sessionOf(broker), stat.getEphemeralOwner());
        assertTrue(broker.isRegistered());
    }

    @Test
    public void writesANullRackWhenNoneIsConfigured() throws Exception {
        ZkCluster broker = brokers.start(1);
        JsonNode json = new ObjectMapper().readTree(broker.curator().getData().forPath("/millrace/brokers/ids/1"));
        assertTrue(json.has("rack"));
        assertTrue(json.get("rack").isNull());
    }

    @Test
    public void aSecondBrokerWithTheSameIdFailsToStartAtOnceNamingTheLiveOne() throws Exception {
        ZkCluster first = brokers.start(1);
        ZkCluster duplicate = brokers.create(1, Brokers.DEFAULT_SESSION_TIMEOUT_MS, Map.of());

        long start = System.nanoTime();
        BrokerIdConflictException e = assertThrows(BrokerIdConflictException.class, () -> duplicate.start("other", 9999));
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertTrue(e.getMessage(), e.getMessage().contains("host1:9091") && e.getMessage().contains("other:9999")
            && e.getMessage().contains("broker.id"));
        assertTrue("refused after " + tookMs + " ms, not at once", tookMs < Brokers.DEFAULT_SESSION_TIMEOUT_MS / 2);
        assertEquals(ZkCluster.State.CLOSED, duplicate.state());
        assertEquals(sessionOf(first), first.curator().checkExists().forPath("/millrace/brokers/ids/1").getEphemeralOwner());
        assertTrue(first.isRegistered());
    }

    @Test
    public void aBrokerRestartedAfterACrashWaitsForItsOldRegistrationToExpireAndThenRegisters() throws Exception {
        try (TcpProxy link = new TcpProxy(zookeeper.port())) {
            ZkCluster crashed = brokers.create(1, 2_000, Map.of(ClusterConfig.ZOOKEEPER_CONNECT_CONFIG, link.connectString()));
            crashed.start("host1", 9091);
            long oldSession = sessionOf(crashed);
            ZkCluster observer = brokers.start(2);
            link.cut(); // as a killed process: the session is neither closed nor kept alive

            ZkCluster restarted = brokers.create(1, 2_000, Map.of());
            long start = System.nanoTime();
            restarted.start("host1", 9091);
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

            assertEquals(sessionOf(restarted), ownerOfRegistration(observer, 1));
            assertNotEquals(oldSession, sessionOf(restarted));
            assertTrue(restarted.isRegistered());
            // The old session had up to its 2 s timeout left; it was waited out, not deleted.
            assertTrue("registered after " + tookMs + " ms, before the old session could expire", tookMs >= 1_000);
            assertTrue("registered after " + tookMs + " ms", tookMs < 4_000);
        }
    }

    @Test
    public void aLiveBrokerAtTheSameAddressStillFailsStartupOnceTheWaitRunsOut() throws Exception {
        ZkCluster live = brokers.start(1);
        ZkCluster duplicate = brokers.create(1, 1_000, Map.of());

        long start = System.nanoTime();
        BrokerIdConflictException e = assertThrows(BrokerIdConflictException.class, () -> duplicate.start("host1", 9091));
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertTrue(e.getMessage(), e.getMessage().contains("still registered") && e.getMessage().contains("host1:9091")
            && e.getMessage().contains("broker.id"));
        // 1 s of session timeout plus the 2 s margin
        assertTrue("gave up after " + tookMs + " ms", tookMs >= 2_900 && tookMs < 8_000);
        assertEquals(sessionOf(live), ownerOfRegistration(live, 1));
        assertTrue(live.isRegistered());
    }

    @Test
    public void aBrokerRestartedAfterItsOldRegistrationWentRegistersAtOnce() throws Exception {
        ZkCluster previous = brokers.start(1);
        previous.close();
        ZkCluster restarted = brokers.create(1, Brokers.DEFAULT_SESSION_TIMEOUT_MS, Map.of());

        long start = System.nanoTime();
        restarted.start("host1", 9091);
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertEquals(sessionOf(restarted), ownerOfRegistration(restarted, 1));
        assertTrue("registered after " + tookMs + " ms", tookMs < Brokers.DEFAULT_SESSION_TIMEOUT_MS / 2);
    }

    @Test
    public void closingABrokerRemovesItsRegistrationForEveryone() throws Exception {
        ZkCluster leaving = brokers.start(1);
        ZkCluster staying = brokers.start(2);
        Wait.until("broker 2 sees broker 1", staying.metadata(), s -> s.isLive(1));

        leaving.close();

        Wait.until("broker 2 sees broker 1 go", staying.metadata(), s -> !s.isLive(1));
        assertNull(staying.curator().checkExists().forPath("/millrace/brokers/ids/1"));
    }

    @Test
    public void registersAgainAfterItsSessionExpiresOnTheServer() throws Exception {
        ZkCluster broker = brokers.start(1);
        ZkCluster observer = brokers.start(2);
        long firstSession = sessionOf(broker);
        brokers.time.advance(1_000);
        long reRegisteredAt = brokers.time.milliseconds();

        zookeeper.expireSession(broker.curator().getZookeeperClient().getZooKeeper());

        Wait.until("broker 1 registered again", observer.metadata(),
            s -> s.broker(1).map(b -> b.timestamp() == reRegisteredAt).orElse(false));
        // The observer can see the new znode a moment before the registering thread records its
        // session, so wait for the broker's own view rather than read it once.
        Wait.until("broker 1 knows it is registered", broker::isRegistered);
        assertNotEquals(firstSession, sessionOf(broker));
        assertEquals(sessionOf(broker), ownerOfRegistration(observer, 1));
    }

    @Test
    public void replacesTheLeftoverOfItsOwnExpiredSessionAtOnce() throws Exception {
        // A client-side expiry: the server keeps the old session, and its znode, for 30 s more.
        ZkCluster broker = brokers.start(1, 30_000);
        long oldSession = sessionOf(broker);

        KillSession.kill(broker.curator().getZookeeperClient().getZooKeeper());

        // The znode is visible a moment before the registering thread records its session, so
        // wait for both rather than read isRegistered() right after seeing the znode.
        Wait.until("broker 1 registered under a new session", () -> {
            long owner = ownerOfRegistration(broker, 1);
            return owner != oldSession && owner != -1 && owner == sessionOf(broker) && broker.isRegistered();
        });
        assertEquals(sessionOf(broker), ownerOfRegistration(broker, 1));
    }

    @Test
    public void registersAgainWhenZooKeeperComesBackAfterTheSessionTimedOut() throws Exception {
        ZkCluster broker = brokers.start(1, 1_000);
        CountDownLatch lost = awaitState(broker, ConnectionState.LOST);
        CountDownLatch reconnected = awaitState(broker, ConnectionState.RECONNECTED);
        long oldSession = sessionOf(broker);

        zookeeper.stop();
        assertTrue("session lost", lost.await(15, TimeUnit.SECONDS));
        Wait.until("broker 1 knows it is unregistered", () -> !broker.isRegistered());
        brokers.time.advance(1_000);
        zookeeper.restart();
        assertTrue("reconnected", reconnected.await(15, TimeUnit.SECONDS));

        Wait.until("broker 1 registered under its new session", broker.metadata(),
            s -> s.broker(1).map(b -> b.timestamp() == brokers.time.milliseconds()).orElse(false));
        assertNotEquals(oldSession, sessionOf(broker));
        assertEquals(sessionOf(broker), ownerOfRegistration(broker, 1));
    }

    @Test
    public void keepsServingItsLastViewWhileSuspendedAndKeepsItsSessionOnAShortOutage() throws Exception {
        ZkCluster broker = brokers.start(1, 30_000);
        ZkCluster other = brokers.start(2, 30_000);
        Wait.until("both brokers visible", broker.metadata(), s -> s.liveBrokers().size() == 2);
        CountDownLatch suspended = awaitState(broker, ConnectionState.SUSPENDED);
        CountDownLatch reconnected = awaitState(broker, ConnectionState.RECONNECTED);
        long session = sessionOf(broker);

        zookeeper.stop();
        assertTrue("suspended", suspended.await(15, TimeUnit.SECONDS));
        assertEquals(2, broker.metadata().liveBrokers().size());
        assertEquals("host2", broker.metadata().snapshot().broker(2).orElseThrow().host());
        assertTrue(broker.isRegistered());

        zookeeper.restart();
        assertTrue("reconnected", reconnected.await(15, TimeUnit.SECONDS));
        assertEquals(session, sessionOf(broker));
        assertEquals(session, ownerOfRegistration(other, 1));
        assertTrue(broker.isRegistered());
    }

    @Test
    public void closesPromptlyWhileZooKeeperIsDown() throws Exception {
        ZkCluster broker = brokers.start(1, 30_000);
        CountDownLatch suspended = awaitState(broker, ConnectionState.SUSPENDED);
        zookeeper.stop();
        assertTrue("suspended", suspended.await(15, TimeUnit.SECONDS));

        long start = System.nanoTime();
        broker.close();

        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue("close took " + tookMs + " ms", tookMs < 10_000);
        assertEquals(ZkCluster.State.CLOSED, broker.state());
    }

    private static CountDownLatch awaitState(ZkCluster broker, ConnectionState wanted) {
        CountDownLatch latch = new CountDownLatch(1);
        broker.curator().getConnectionStateListenable().addListener((client, state) -> {
            if (state == wanted) {
                latch.countDown();
            }
        });
        return latch;
    }

    private static long sessionOf(ZkCluster broker) {
        try {
            return broker.curator().getZookeeperClient().getZooKeeper().getSessionId();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static long ownerOfRegistration(ZkCluster via, int brokerId) {
        try {
            CuratorFramework client = via.curator();
            Stat stat = client.checkExists().forPath(ClusterPaths.broker(brokerId));
            return stat == null ? -1 : stat.getEphemeralOwner();
        } catch (Exception e) {
            return -1;
        }
    }
}
