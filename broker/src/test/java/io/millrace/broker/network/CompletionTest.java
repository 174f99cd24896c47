package io.millrace.broker.network;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.network.Handlers.Held;
import io.millrace.broker.network.Handlers.Holding;
import io.millrace.testkit.Conditions;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/** Completing a request from a handler: late, twice, after the client left, after shutdown. */
public class CompletionTest {

    private final ServerFixture servers = new ServerFixture();
    private final Holding handler = new Holding();

    @Rule
    public final TestRule rules = RuleChain.outerRule(new LeakRecorder()).around(servers);

    @Test
    public void aResponseToAConnectionTheClientClosedIsReleasedAndItsListenerToldWhy() throws Exception {
        NetworkServer server = servers.start(handler);
        TestClient client = servers.connect(server);
        client.send("slow");
        Held held = handler.take();
        client.close();
        Conditions.waitUntil(() -> !held.context.isConnectionOpen(), "the server sees the client leave");

        ByteBuf body = held.context.alloc().buffer().writeInt(1);
        CompletableFuture<Throwable> told = new CompletableFuture<>();
        held.context.sendResponse(ResponseSend.builder().add(body).whenComplete(told::complete).build());
        assertTrue(told.get(10, TimeUnit.SECONDS) instanceof ClosedChannelException);
        assertEquals(0, body.refCnt());
        Conditions.waitUntil(() -> gauge(server, "requests-in-flight") == 0, "the request is no longer in flight");
    }

    @Test
    public void completingTwiceIsRefusedAndReleasesTheSecondResponse() throws Exception {
        TestClient client = servers.connect(servers.start(handler));
        client.send("once");
        Held held = handler.take();
        held.echo();
        ByteBuf second = held.context.alloc().buffer().writeInt(2);
        assertThrows(IllegalStateException.class, () -> held.context.sendResponse(ResponseSend.of(second)));
        assertEquals(0, second.refCnt());
        assertThrows(IllegalStateException.class, held.context::noResponse);
        assertThrows(IllegalStateException.class, held.context::closeConnection);
        assertEquals("once", client.receiveString());
    }

    @Test
    public void shutdownLetsRequestsInProgressFinishAndWritesTheirResponses() throws Exception {
        NetworkServer server = servers.start(handler);
        TestClient[] clients = {servers.connect(server), servers.connect(server), servers.connect(server)};
        clients[0].sendRaw(concat(TestClient.frame(TestClient.utf8("r0")), TestClient.frame(TestClient.utf8("never"))));
        clients[1].send("r1");
        clients[2].send("r2");
        Held[] held = {handler.take(), handler.take(), handler.take()};

        int port = server.boundPort();
        CompletableFuture<Boolean> shutdown = CompletableFuture.supplyAsync(() -> server.shutdown(Duration.ofSeconds(10)));
        Conditions.waitUntil(() -> refusesConnections(port), "the server stops accepting");
        assertFalse("shutdown waits for the requests in progress", shutdown.isDone());

        for (Held h : held) {
            h.echo();
        }
        assertTrue(shutdown.get(10, TimeUnit.SECONDS));
        for (int i = 0; i < clients.length; i++) {
            assertEquals("r" + i, clients[i].receiveString());
            assertTrue(clients[i].closedByServer());
        }
        assertNull("the pipelined request was never started", handler.poll());
    }

    @Test
    public void shutdownGivesUpAfterItsTimeoutAndALateResponseIsReleased() throws Exception {
        NetworkServer server = servers.start(handler);
        TestClient client = servers.connect(server);
        client.send("forever");
        Held held = handler.take();

        assertFalse(server.shutdown(Duration.ofMillis(50)));
        assertTrue(client.closedByServer());
        assertFalse(held.context.isConnectionOpen());

        ByteBuf late = held.context.alloc().buffer().writeInt(3);
        CompletableFuture<Throwable> told = new CompletableFuture<>();
        held.context.sendResponse(ResponseSend.builder().add(late).whenComplete(told::complete).build());
        assertTrue(String.valueOf(told.get(10, TimeUnit.SECONDS)), told.get() instanceof ClosedChannelException);
        assertEquals(0, late.refCnt());
    }

    private static boolean refusesConnections(int port) {
        try (TestClient probe = new TestClient(port)) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    private static long gauge(NetworkServer server, String name) {
        return (Long) server.metrics().group().value(name);
    }
}
