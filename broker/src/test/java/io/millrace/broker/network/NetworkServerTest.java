package io.millrace.broker.network;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.network.Handlers.Held;
import io.millrace.broker.network.Handlers.Holding;
import io.millrace.common.errors.MillraceException;
import io.millrace.testkit.Conditions;
import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/** The server over real loopback sockets: round trips, many clients, bad frames, completions. */
public class NetworkServerTest {

    private final ServerFixture servers = new ServerFixture();

    @Rule
    public final TestRule rules = RuleChain.outerRule(new LeakRecorder()).around(servers);

    @Test
    public void bindsAFreePortAndEchoesARequest() throws Exception {
        NetworkServer server = servers.start(Handlers.ECHO);
        assertNotEquals(0, server.boundPort());
        assertEquals(Transport.best(), server.transport());
        TestClient client = servers.connect(server);
        client.send("hello, broker");
        assertEquals("hello, broker", client.receiveString());
    }

    @Test
    public void servesManyConcurrentConnections() throws Exception {
        NetworkServer server = servers.start(Handlers.ECHO);
        int clients = 40;
        int requestsEach = 25;
        ExecutorService threads = Executors.newFixedThreadPool(clients);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int id = c;
                done.add(threads.submit(() -> {
                    TestClient client = servers.connect(server);
                    for (int r = 0; r < requestsEach; r++) {
                        client.send(id + "/" + r);
                        assertEquals(id + "/" + r, client.receiveString());
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            threads.shutdownNow();
        }
        assertEquals(clients * requestsEach, server.metrics().requestTotal());
    }

    @Test
    public void aPortInUseFailsStartAndStopsWhatWasStarted() {
        NetworkServer first = servers.start(Handlers.ECHO);
        String taken = "PLAINTEXT://127.0.0.1:" + first.boundPort();
        long requestThreads = liveThreads("millrace-request-handler-");
        MillraceException e = assertThrows(MillraceException.class,
            () -> servers.start(Handlers.ECHO, Map.of(NetworkConfig.LISTENERS_CONFIG, taken)));
        assertTrue(e.getMessage(), e.getMessage().contains(taken));
        assertEquals("the failed server's request threads are stopped", requestThreads,
            liveThreads("millrace-request-handler-"));
    }

    private static long liveThreads(String prefix) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith(prefix) && t.isAlive()).count();
    }

    @Test
    public void anOversizedFrameFromOneClientDoesNotDisturbAnother() throws Exception {
        NetworkServer server = servers.start(Handlers.ECHO, Map.of(NetworkConfig.SOCKET_REQUEST_MAX_BYTES_CONFIG, 100));
        TestClient good = servers.connect(server);
        TestClient bad = servers.connect(server);
        byte[] frame = TestClient.frame(TestClient.utf8("still served"));
        good.sendRaw(Arrays.copyOf(frame, 6)); // half a frame, in progress while the other client misbehaves
        bad.sendRaw(ByteBuffer.allocate(4).putInt(101).array());
        assertTrue(bad.closedByServer());
        good.sendRaw(Arrays.copyOfRange(frame, 6, frame.length));
        assertEquals("still served", good.receiveString());
        good.send(new byte[100]);
        assertArrayEquals(new byte[100], good.receive());
    }

    @Test
    public void aNegativeSizeClosesOnlyThatConnection() throws Exception {
        NetworkServer server = servers.start(Handlers.ECHO);
        TestClient bad = servers.connect(server);
        TestClient good = servers.connect(server);
        bad.sendRaw(new byte[] {(byte) 0x80, 0, 0, 0});
        assertTrue(bad.closedByServer());
        good.send("ok");
        assertEquals("ok", good.receiveString());
    }

    @Test
    public void noResponseLetsTheNextRequestThrough() throws Exception {
        RequestHandler handler = (context, payload) -> {
            if (payload.toString(StandardCharsets.UTF_8).equals("acks=0")) {
                context.noResponse();
            } else {
                Handlers.ECHO.handle(context, payload);
            }
        };
        TestClient client = servers.connect(servers.start(handler));
        client.send("acks=0");
        client.send("acks=1");
        assertEquals("acks=1", client.receiveString());
    }

    @Test
    public void framesSentBeforeTheClientClosesAreStillHandledInOrder() throws Exception {
        List<String> handled = java.util.Collections.synchronizedList(new ArrayList<>());
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        RequestHandler handler = (context, payload) -> {
            String text = payload.toString(StandardCharsets.UTF_8);
            try {
                if (text.equals("first")) {
                    release.await();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            handled.add(text);
            context.noResponse();
        };
        NetworkServer server = servers.start(handler);
        TestClient client = servers.connect(server);
        // One write, so the three frames reach the server in one read: once "first" is in progress
        // the connection is muted, and frames sent separately would wait unread in the socket.
        client.sendRaw(pipelined("first", "second", "third"));
        Conditions.waitUntil(() -> server.metrics().requestTotal() == 3, "all three frames received");
        client.close();
        Conditions.waitUntil(() -> server.metrics().connectionCount() == 0, "the client's close is seen");
        release.countDown();
        Conditions.waitUntil(() -> handled.size() == 3, "the frames queued behind the first are handled");
        assertEquals(List.of("first", "second", "third"), handled);
    }

    private static byte[] pipelined(String... payloads) {
        java.io.ByteArrayOutputStream frames = new java.io.ByteArrayOutputStream();
        for (String payload : payloads) {
            frames.writeBytes(TestClient.frame(TestClient.utf8(payload)));
        }
        return frames.toByteArray();
    }

    @Test
    public void closeConnectionClosesOnlyThatConnection() throws Exception {
        List<String> handled = java.util.Collections.synchronizedList(new ArrayList<>());
        RequestHandler handler = (context, payload) -> {
            handled.add(payload.toString(StandardCharsets.UTF_8));
            if (payload.toString(StandardCharsets.UTF_8).equals("garbage")) {
                context.closeConnection();
            } else {
                Handlers.ECHO.handle(context, payload);
            }
        };
        NetworkServer server = servers.start(handler);
        TestClient bad = servers.connect(server);
        TestClient good = servers.connect(server);
        bad.send("garbage");
        bad.send("never handled");
        assertTrue(bad.closedByServer());
        good.send("fine");
        assertEquals("fine", good.receiveString());
        Conditions.waitUntil(() -> server.metrics().connectionCount() == 1, "the closed connection is counted out");
        assertEquals("a frame queued behind the one that closed the connection is dropped",
            List.of("garbage", "fine"), handled);
    }

    @Test
    public void aHandlerThatThrowsClosesItsConnectionAndReleasesThePayload() throws Exception {
        AtomicReference<ByteBuf> seen = new AtomicReference<>();
        RequestHandler handler = (context, payload) -> {
            seen.set(payload);
            throw new IllegalStateException("handler bug (expected by the test)");
        };
        TestClient client = servers.connect(servers.start(handler));
        client.send("boom");
        assertTrue(client.closedByServer());
        assertEquals(0, seen.get().refCnt());
    }

    @Test
    public void thePayloadIsReleasedWhenTheRequestCompletes() throws Exception {
        Holding handler = new Holding();
        AtomicReference<ByteBuf> payloadSeen = new AtomicReference<>();
        NetworkServer server = servers.start((context, payload) -> {
            payloadSeen.set(payload);
            handler.handle(context, payload);
        });
        TestClient client = servers.connect(server);
        client.send("x");
        Held held = handler.take();
        assertEquals(1, payloadSeen.get().refCnt());
        held.echo();
        assertEquals(0, payloadSeen.get().refCnt());
        assertEquals("x", client.receiveString());
    }

    @Test
    public void aContextDescribesItsConnection() throws Exception {
        Holding handler = new Holding();
        NetworkServer server = servers.start(handler);
        TestClient client = servers.connect(server);
        client.send("who am i");
        Held held = handler.take();
        RequestContext context = held.context;
        assertEquals(Endpoint.PLAINTEXT, context.listenerName());
        assertEquals(server.boundPort(), context.localAddress().getPort());
        InetSocketAddress remote = context.remoteAddress();
        assertTrue(remote.getAddress().isLoopbackAddress());
        assertTrue(context.connectionId(), context.connectionId().startsWith("127.0.0.1:" + server.boundPort() + "-127.0.0.1:"));
        assertEquals(servers.time.nanoseconds(), context.receiveTimeNanos());
        assertTrue(context.isConnectionOpen());
        held.echo();
        assertEquals("who am i", client.receiveString());
    }

    @Test
    public void closesAConnectionIdleForConnectionsMaxIdleMs() throws Exception {
        NetworkServer server = servers.start(Handlers.ECHO, Map.of(NetworkConfig.CONNECTIONS_MAX_IDLE_MS_CONFIG, 50L));
        TestClient client = servers.connect(server);
        client.send("active");
        assertEquals("active", client.receiveString());
        Conditions.waitUntil(() -> server.metrics().group().value("requests-in-flight").equals(0L),
            "the request is finished, so the connection's last activity is recorded");
        servers.time.advance(51);
        assertTrue(client.closedByServer());
    }
}
