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

    private static Object metric(NetworkServer server, String name) {
        return server.metrics().group().value(name);
    }
}
