package io.millrace.broker.network;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.millrace.testkit.Conditions;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.Rule;
import org.junit.Test;

/** The broker's resource limits, each against a raw socket client. */
public class ConnectionLimitsTest {

    @Rule
    public final ServerFixture servers = new ServerFixture();

    @Test
    public void aConnectionBeyondMaxConnectionsPerIpIsClosedAndTheOthersServe() throws Exception {
        NetworkServer server = servers.start(Handlers.ECHO, Map.of(NetworkConfig.MAX_CONNECTIONS_PER_IP_CONFIG, 2));
        TestClient first = servers.connect(server);
        TestClient second = servers.connect(server);
        first.send("one");
        assertEquals("one", first.receiveString());
        second.send("two");
        assertEquals("two", second.receiveString());
        TestClient third = servers.connect(server);
        assertTrue("the third connection from 127.0.0.1 is closed", third.closedByServer());
        first.close();
        Conditions.waitUntil(() -> metric(server, "connection-count").equals(1L), "the first connection to be counted out");
        TestClient again = servers.connect(server);
        again.send("again");
        assertEquals("again", again.receiveString());
    }

    @Test
    public void anOverrideRaisesOrLowersOneAddresssLimit() throws Exception {
        NetworkServer server = servers.start(Handlers.ECHO, Map.of(NetworkConfig.MAX_CONNECTIONS_PER_IP_CONFIG, 1,
            NetworkConfig.MAX_CONNECTIONS_PER_IP_OVERRIDES_CONFIG, "127.0.0.1:3"));
        TestClient[] clients = {servers.connect(server), servers.connect(server), servers.connect(server)};
        for (TestClient client : clients) {
            client.send("hi");
            assertEquals("hi", client.receiveString());
        }
        assertTrue("a fourth connection from 127.0.0.1 is closed", servers.connect(server).closedByServer());

        NetworkServer none = servers.start(Handlers.ECHO, Map.of(NetworkConfig.MAX_CONNECTIONS_PER_IP_OVERRIDES_CONFIG,
            "127.0.0.1:0"));
        assertTrue("an address with a limit of 0 may not connect at all", servers.connect(none).closedByServer());
    }

    @Test
    public void atMaxConnectionsNoFurtherConnectionIsServedUntilOneCloses() throws Exception {
        for (Transport transport : new Transport[] {Transport.NIO, Transport.best()}) {
            NetworkServer server = servers.start(Handlers.ECHO, Map.of(NetworkConfig.MAX_CONNECTIONS_CONFIG, 2), transport);
            TestClient first = servers.connect(server);
            TestClient second = servers.connect(server);
            first.send("one");
            assertEquals("one", first.receiveString());
            second.send("two");
            assertEquals("two", second.receiveString());
            TestClient beyond = servers.connect(server);   // waits in the backlog, or is closed if it slipped in
            beyond.send("beyond");
            CompletableFuture<String> answer = CompletableFuture.supplyAsync(() -> receiveOrFailure(beyond));
            Thread.sleep(300);
            assertFalse(transport + ": served beyond max.connections", answer.isDone() && answer.get().equals("beyond"));
            assertEquals(2L, metric(server, "connection-count"));
            beyond.close();
            first.close();
            assertTrue(transport + ": a slot freed", servedWithin(server, 10_000));
            server.close();
        }
    }

    /** Whether a new connection gets an answer within {@code ms}; one closed while the count catches up is retried. */
    private boolean servedWithin(NetworkServer server, long ms) throws Exception {
        long deadline = System.nanoTime() + ms * 1_000_000L;
        while (System.nanoTime() < deadline) {
            TestClient client = servers.connect(server);
            client.send("later");
            if (receiveOrFailure(client).equals("later")) {
                return true;
            }
            Thread.sleep(20);
        }
        return false;
    }

    private static String receiveOrFailure(TestClient client) {
        try {
            return client.receiveString();
        } catch (IOException e) {
            return "failed: " + e;
        }
    }

    @Test
    public void bytesOfAFrameThatNeverCompletesDoNotKeepAConnectionAlive() throws Exception {
        NetworkServer server = servers.start(Handlers.ECHO, Map.of(NetworkConfig.CONNECTIONS_MAX_IDLE_MS_CONFIG, 50L));
        TestClient client = servers.connect(server);
        client.sendRaw(new byte[] {0, 0, 1, 0});   // a frame of 256 bytes, of which only a few ever come
        for (int i = 0; i < 4; i++) {
            long read = (Long) metric(server, "incoming-byte-total");
            servers.time.advance(20);
            client.sendRaw(new byte[] {0});
            Conditions.waitUntil(() -> (Long) metric(server, "incoming-byte-total") > read, "the trickled byte to arrive");
        }
        assertTrue("80 ms of trickling, 50 ms allowed", client.closedByServer());
    }

    @Test
    public void aRequestBeyondQueuedMaxRequestBytesWaitsUnreadWhileSmallerOnesFitAndIsServedOnRelease() throws Exception {
        Handlers.Holding holding = new Handlers.Holding();
        NetworkServer server = servers.start(holding, Map.of(NetworkConfig.SOCKET_REQUEST_MAX_BYTES_CONFIG, 1000,
            NetworkConfig.QUEUED_MAX_REQUEST_BYTES_CONFIG, 1000L));
        TestClient a = servers.connect(server);
        a.send("a".repeat(900));
        Handlers.Held first = holding.take();
        assertEquals(900L, metric(server, "memory-pool-used"));

        TestClient b = servers.connect(server);
        b.send("b".repeat(900));
        Conditions.waitUntil(() -> metric(server, "connections-blocked-on-memory").equals(1L), "b to wait for memory");
        TestClient c = servers.connect(server);
        c.send("small");
        Handlers.Held small = holding.take();
        assertEquals("a request that fits is served while another waits", "small", small.text);
        assertEquals(null, holding.poll());
        assertEquals(905L, metric(server, "memory-pool-used"));

        first.echo();
        assertEquals(900, a.receiveString().length());
        Handlers.Held second = holding.take();
        assertEquals("b".repeat(900), second.text);
        second.echo();
        small.echo();
        assertEquals(900, b.receiveString().length());
        assertEquals("small", c.receiveString());
        Conditions.waitUntil(() -> metric(server, "memory-pool-used").equals(0L), "every reservation to be returned");
        assertEquals(0L, metric(server, "connections-blocked-on-memory"));
    }

    @Test
    public void aFrameAClientAbandonsHalfwayGivesItsMemoryBack() throws Exception {
        NetworkServer server = servers.start(Handlers.ECHO, Map.of(NetworkConfig.SOCKET_REQUEST_MAX_BYTES_CONFIG, 1000,
            NetworkConfig.QUEUED_MAX_REQUEST_BYTES_CONFIG, 1000L));
        TestClient quitter = servers.connect(server);
        quitter.sendRaw(new byte[] {0, 0, 3, (byte) 0xe8, 1, 2, 3});   // announces 1000 bytes, sends 3
        Conditions.waitUntil(() -> metric(server, "memory-pool-used").equals(1000L), "the frame's reservation");
        quitter.close();
        Conditions.waitUntil(() -> metric(server, "memory-pool-used").equals(0L), "the reservation to be returned");
        TestClient next = servers.connect(server);
        next.send("x".repeat(1000));
        assertEquals(1000, next.receiveString().length());
    }

    private static Object metric(NetworkServer server, String name) {
        return server.metrics().group().value(name);
    }
}
