package io.millrace.broker.network;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import io.millrace.testkit.Conditions;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * One request thread and a queue of one: a request that does not fit waits, its connection
 * unread, and nothing is dropped.
 */
public class BackPressureTest {

    private final ServerFixture servers = new ServerFixture();

    @Rule
    public final TestRule rules = RuleChain.outerRule(new LeakRecorder()).around(servers);

    private final CountDownLatch gate = new CountDownLatch(1);
    private final Semaphore blockedRequests = new Semaphore(0);
    private final AtomicInteger handled = new AtomicInteger();

    /** Holds the request thread on requests named "block" until the gate opens, then echoes. */
    private final RequestHandler gatedEcho = (context, payload) -> {
        if (payload.toString(StandardCharsets.UTF_8).startsWith("block")) {
            blockedRequests.release();
            try {
                gate.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                context.closeConnection(); // shutdown gave up on us
                return;
            }
        }
        handled.incrementAndGet();
        Handlers.ECHO.handle(context, payload);
    };

    private NetworkServer startSmallServer() {
        return servers.start(gatedEcho, Map.of(NetworkConfig.NUM_IO_THREADS_CONFIG, 1,
            NetworkConfig.QUEUED_MAX_REQUESTS_CONFIG, 1));
    }

    @Test
    public void stopsReadingWhenTheRequestQueueIsFullAndDropsNothing() throws Exception {
        NetworkServer server = startSmallServer();
        TestClient busy = servers.connect(server);
        TestClient queued = servers.connect(server);
        TestClient waiting = servers.connect(server);

        busy.send("block");
        blockedRequests.acquire(); // the only request thread is now held
        queued.send("queued");
        Conditions.waitUntil(() -> gauge(server, "request-queue-size") == 1, "the second request fills the queue");
        waiting.send("waits 1");
        waiting.send("waits 2");
        Conditions.waitUntil(() -> gauge(server, "connections-blocked-on-queue") == 1, "the third connection waits");
        assertEquals(1, gauge(server, "request-queue-size"));

        gate.countDown();
        assertEquals("block", busy.receiveString());
        assertEquals("queued", queued.receiveString());
        assertEquals("waits 1", waiting.receiveString());
        assertEquals("waits 2", waiting.receiveString());
        assertEquals(0, gauge(server, "connections-blocked-on-queue"));
    }

    @Test
    public void aWaitingConnectionThatDisconnectsDoesNotStallTheOthers() throws Exception {
        NetworkServer server = startSmallServer();
        TestClient busy = servers.connect(server);
        TestClient queued = servers.connect(server);
        TestClient quitter = servers.connect(server);
        TestClient patient = servers.connect(server);

        busy.send("block");
        blockedRequests.acquire();
        queued.send("queued");
        Conditions.waitUntil(() -> gauge(server, "request-queue-size") == 1, "the queue is full");
        quitter.send("gives up");
        patient.send("patient");
        Conditions.waitUntil(() -> gauge(server, "connections-blocked-on-queue") == 2, "two connections wait");
        quitter.close();
        Conditions.waitUntil(() -> server.metrics().connectionCount() == 3, "the quitter's close is seen");

        gate.countDown();
        assertEquals("block", busy.receiveString());
        assertEquals("queued", queued.receiveString());
        assertEquals("patient", patient.receiveString());
        // The quitter's request was received whole before it left, so it is still carried out
        // (Kafka's rule, which acks=0 producers rely on); its answer has nowhere to go.
        Conditions.waitUntil(() -> handled.get() == 4, "all four requests carried out");
        assertEquals(0, gauge(server, "connections-blocked-on-queue"));
    }

    @Test
    public void requestsStillQueuedWhenShutdownGivesUpAreReleased() throws Exception {
        NetworkServer server = startSmallServer();
        TestClient busy = servers.connect(server);
        TestClient queued = servers.connect(server);
        busy.send("block");
        blockedRequests.acquire();
        queued.send("never handled");
        Conditions.waitUntil(() -> gauge(server, "request-queue-size") == 1, "the request is queued");
        assertFalse(server.shutdown(Duration.ofMillis(50)));
        assertEquals(0, gauge(server, "request-queue-size"));
        // The leak check proves the queued payload was released.
    }

    private static long gauge(NetworkServer server, String name) {
        return (Long) server.metrics().group().value(name);
    }
}
