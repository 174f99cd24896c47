package io.millrace.broker.network;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.network.Handlers.Held;
import io.millrace.broker.network.Handlers.Holding;
import io.netty.buffer.ByteBuf;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/** One request per connection at a time, so each connection's responses keep request order. */
public class RequestOrderTest {

    private final ServerFixture servers = new ServerFixture();

    @Rule
    public final TestRule rules = RuleChain.outerRule(new LeakRecorder()).around(servers);

    @Test
    public void answersEachConnectionInRequestOrderWhenTheHandlerCompletesOutOfOrder() throws Exception {
        Holding handler = new Holding();
        NetworkServer server = servers.start(handler);
        int connections = 4;
        int rounds = 5;
        List<TestClient> clients = new ArrayList<>();
        for (int c = 0; c < connections; c++) {
            TestClient client = servers.connect(server);
            client.sendRaw(pipelined(c, rounds));
            clients.add(client);
        }
        Random random = new Random(42);
        for (int round = 0; round < rounds; round++) {
            List<Held> held = takeOnePerConnection(handler, connections, round);
            Collections.shuffle(held, random);
            held.forEach(Held::echo); // completes across connections in a random order
        }
        for (int c = 0; c < connections; c++) {
            for (int r = 0; r < rounds; r++) {
                assertEquals(c + "/" + r, clients.get(c).receiveString());
            }
        }
    }

    /** Takes the round's request of every connection: exactly one each, since each has one in progress. */
    private static List<Held> takeOnePerConnection(Holding handler, int connections, int round) throws InterruptedException {
        List<Held> held = new ArrayList<>();
        Set<String> connectionIds = new HashSet<>();
        for (int i = 0; i < connections; i++) {
            Held next = handler.take();
            assertEquals(round, Integer.parseInt(next.text.split("/")[1]));
            connectionIds.add(next.context.connectionId());
            held.add(next);
        }
        assertEquals("one request per connection", connections, connectionIds.size());
        assertNull("a connection had a second request in progress", handler.poll());
        return held;
    }

    @Test
    public void processesPipelinedRequestsOnOneConnectionOneAtATime() throws Exception {
        Map<String, AtomicInteger> inProgress = new ConcurrentHashMap<>();
        AtomicInteger mostAtOnce = new AtomicInteger();
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        ExecutorService completer = Executors.newFixedThreadPool(4);
        RequestHandler handler = (context, payload) -> {
            int now = inProgress.computeIfAbsent(context.connectionId(), k -> new AtomicInteger()).incrementAndGet();
            mostAtOnce.accumulateAndGet(now, Math::max);
            seen.add(payload.toString(StandardCharsets.UTF_8));
            byte[] answer = payload.toString(StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8);
            completer.execute(() -> { // completes later, on another thread
                inProgress.get(context.connectionId()).decrementAndGet();
                context.sendResponse(ResponseSend.of(context.alloc().buffer().writeBytes(answer)));
            });
        };
        try {
            TestClient client = servers.connect(servers.start(handler));
            int requests = 200;
            client.sendRaw(pipelined(0, requests));
            for (int r = 0; r < requests; r++) {
                assertEquals("0/" + r, client.receiveString());
            }
            assertEquals(1, mostAtOnce.get());
            for (int r = 0; r < requests; r++) {
                assertEquals("0/" + r, seen.get(r));
            }
        } finally {
            completer.shutdownNow();
        }
    }

    @Test
    public void aRequestHandledOnTheNetworkThreadWaitsForTheEarlierRequestsOfItsConnection() throws Exception {
        Holding requestThreads = new Holding();
        AtomicInteger slowAnswered = new AtomicInteger();
        List<String> onNetworkThread = Collections.synchronizedList(new ArrayList<>());
        RequestHandler handler = new RequestHandler() {
            @Override
            public void handle(RequestContext context, ByteBuf payload) {
                requestThreads.handle(context, payload);
            }

            @Override
            public boolean handleOnNetworkThread(RequestContext context, ByteBuf payload) {
                String text = payload.toString(StandardCharsets.UTF_8);
                if (!text.startsWith("fast")) {
                    return false;
                }
                onNetworkThread.add(text + " after " + slowAnswered.get() + " on " + Thread.currentThread().getName());
                context.sendResponse(ResponseSend.of(context.alloc().buffer().writeBytes(TestClient.utf8(text))));
                return true;
            }
        };
        NetworkServer server = servers.start(handler);
        TestClient client = servers.connect(server);
        List<String> sent = List.of("slow/0", "fast/1", "fast/2", "slow/3", "fast/4");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        sent.forEach(text -> out.writeBytes(TestClient.frame(TestClient.utf8(text))));
        client.sendRaw(out.toByteArray());

        for (String slow : List.of("slow/0", "slow/3")) {
            Held held = requestThreads.take();
            assertEquals(slow, held.text);
            slowAnswered.incrementAndGet();
            held.echo();
        }
        for (String text : sent) {
            assertEquals(text, client.receiveString());
        }
        assertEquals(3, onNetworkThread.size());
        assertEquals(List.of("fast/1 after 1", "fast/2 after 1", "fast/4 after 2"),
            onNetworkThread.stream().map(line -> line.substring(0, line.indexOf(" on "))).toList());
        onNetworkThread.forEach(line -> assertTrue(line, line.contains(" on millrace-network-thread")));
        assertEquals(3, server.metrics().requestsOnNetworkThread());
        assertNull("a request on the network thread also reached a request thread", requestThreads.poll());
    }

    /** {@code count} request frames {@code connection/i} in one write, as a client pipelines them. */
    private static byte[] pipelined(int connection, int count) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < count; i++) {
            out.writeBytes(TestClient.frame(TestClient.utf8(connection + "/" + i)));
        }
        return out.toByteArray();
    }
}
