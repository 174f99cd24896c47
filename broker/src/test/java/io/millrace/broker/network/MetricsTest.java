package io.millrace.broker.network;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.network.Handlers.Held;
import io.millrace.broker.network.Handlers.Holding;
import io.millrace.testkit.Conditions;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/** The network layer's metrics as JMX shows them, and a registry other components can add to. */
public class MetricsTest {

    private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

    private final ServerFixture servers = new ServerFixture();

    @Rule
    public final TestRule rules = RuleChain.outerRule(new LeakRecorder()).around(servers);

    @Test
    public void exportsConnectionRequestAndByteCountsThroughJmx() throws Exception {
        NetworkServer server = servers.start(Handlers.ECHO);
        ObjectName name = server.metrics().group().objectName();
        assertEquals("io.millrace", name.getDomain());
        assertEquals(NetworkMetrics.GROUP, name.getKeyProperty("type"));

        TestClient client = servers.connect(server);
        client.send("12345");
        client.send("1234567890");
        assertEquals("12345", client.receiveString());
        assertEquals("1234567890", client.receiveString());

        long frameBytes = 4 + 5 + 4 + 10;
        assertEquals(1L, JMX.getAttribute(name, "connection-count"));
        assertEquals(1L, JMX.getAttribute(name, "connection-creation-total"));
        assertEquals(2L, JMX.getAttribute(name, "request-total"));
        assertEquals(frameBytes, JMX.getAttribute(name, "incoming-byte-total"));
        Conditions.waitUntil(() -> attribute(name, "outgoing-byte-total").equals(frameBytes), "both responses are counted");
        Conditions.waitUntil(() -> attribute(name, "requests-in-flight").equals(0L), "nothing is in flight");
        client.close();
        Conditions.waitUntil(() -> attribute(name, "connection-count").equals(0L), "the closed connection is counted out");
        assertEquals(1L, JMX.getAttribute(name, "connection-close-total"));
    }

    @Test
    public void countsARequestInFlightUntilItsResponseIsWritten() throws Exception {
        Holding handler = new Holding();
        NetworkServer server = servers.start(handler);
        TestClient client = servers.connect(server);
        client.send("in flight");
        Held held = handler.take();
        assertEquals(1L, server.metrics().group().value("requests-in-flight"));
        held.echo();
        assertEquals("in flight", client.receiveString());
        Conditions.waitUntil(() -> server.metrics().group().value("requests-in-flight").equals(0L), "the request is done");
    }

    @Test
    public void measuresRequestQueueTimeWithTheInjectedClock() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        Semaphore blocked = new Semaphore(0);
        RequestHandler handler = (context, payload) -> {
            if (payload.toString(StandardCharsets.UTF_8).equals("first")) {
                blocked.release();
                awaitQuietly(gate);
            }
            Handlers.ECHO.handle(context, payload);
        };
        NetworkServer server = servers.start(handler, Map.of(NetworkConfig.NUM_IO_THREADS_CONFIG, 1));
        TestClient first = servers.connect(server);
        TestClient second = servers.connect(server);
        first.send("first");
        blocked.acquire();
        second.send("second");
        Conditions.waitUntil(() -> server.metrics().group().value("request-queue-size").equals(1L), "second is queued");
        servers.time.advance(40); // the second request waits 40 ms by the broker's clock
        gate.countDown();
        assertEquals("first", first.receiveString());
        assertEquals("second", second.receiveString());

        assertEquals(2, server.metrics().queueTime().count());
        assertEquals(40.0, server.metrics().group().value("request-queue-time-ms-max"));
        assertEquals(20.0, server.metrics().group().value("request-queue-time-ms-avg"));
    }

    @Test
    public void anotherComponentAddsItsOwnGroupAndCloseUnregistersIt() throws Exception {
        ObjectName name;
        try (MetricsRegistry registry = new MetricsRegistry(Map.of("broker", "metrics-test"))) {
            MetricGroup produce = registry.group("request-metrics", Map.of("request", "Produce"));
            produce.timer("total-time-ms", "the time from receive to response sent").record(TimeUnit.MILLISECONDS.toNanos(3));
            produce.counter("errors-total", "failed requests").increment();
            name = produce.objectName();
            assertEquals("io.millrace:type=request-metrics,broker=metrics-test,request=Produce", name.toString());
            assertEquals(3.0, JMX.getAttribute(name, "total-time-ms-avg"));
            assertEquals(1L, JMX.getAttribute(name, "errors-total"));
            assertEquals(3, JMX.getMBeanInfo(name).getAttributes().length);
            assertThrows(IllegalArgumentException.class, () -> produce.counter("errors-total", "again"));
        }
        assertFalse(JMX.isRegistered(name));
    }

    @Test
    public void twoRegistriesWithTheSameTagsCollideLoudly() {
        try (MetricsRegistry one = new MetricsRegistry(Map.of("broker", "twin"));
             MetricsRegistry two = new MetricsRegistry(Map.of("broker", "twin"))) {
            one.group("g");
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> two.group("g"));
            assertTrue(e.getMessage(), e.getMessage().contains("broker=twin"));
        }
    }

    private static Object attribute(ObjectName name, String attribute) {
        try {
            return JMX.getAttribute(name, attribute);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
