package io.millrace.broker.network;

import io.millrace.testkit.MockTime;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.rules.ExternalResource;

/**
 * Starts network servers on 127.0.0.1 with a free port and a {@link MockTime}, connects clients
 * to them, and closes everything after the test. Each server exports its metrics under its own
 * {@code server=} tag, so tests never collide in JMX.
 */
final class ServerFixture extends ExternalResource {

    private static final AtomicInteger SERVER_IDS = new AtomicInteger();

    final MockTime time = new MockTime();
    private final List<NetworkServer> servers = new ArrayList<>();
    private final List<MetricsRegistry> registries = new ArrayList<>();
    private final List<TestClient> clients = new ArrayList<>();

    static Map<String, Object> testSettings() {
        Map<String, Object> props = new HashMap<>();
        props.put(NetworkConfig.LISTENERS_CONFIG, "PLAINTEXT://127.0.0.1:0");
        props.put(NetworkConfig.NUM_NETWORK_THREADS_CONFIG, 2);
        props.put(NetworkConfig.NUM_IO_THREADS_CONFIG, 4);
        props.put(NetworkConfig.QUEUED_MAX_REQUESTS_CONFIG, 64);
        props.put(NetworkConfig.SOCKET_REQUEST_MAX_BYTES_CONFIG, 1024 * 1024);
        return props;
    }

    NetworkServer start(RequestHandler handler) {
        return start(handler, Map.of(), Transport.best());
    }

    NetworkServer start(RequestHandler handler, Map<String, Object> overrides) {
        return start(handler, overrides, Transport.best());
    }

    NetworkServer start(RequestHandler handler, Map<String, Object> overrides, Transport transport) {
        Map<String, Object> props = testSettings();
        props.putAll(overrides);
        MetricsRegistry registry = new MetricsRegistry(Map.of("server", "test-" + SERVER_IDS.incrementAndGet()));
        registries.add(registry);
        NetworkServer server = new NetworkServer(new NetworkConfig(props), handler, time, registry, transport);
        servers.add(server);
        server.start();
        return server;
    }

    TestClient connect(NetworkServer server) throws IOException {
        TestClient client = new TestClient(server.boundPort());
        clients.add(client);
        return client;
    }

    @Override
    protected void after() {
        for (TestClient client : clients) {
            try {
                client.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
        servers.forEach(server -> server.shutdown(Duration.ofSeconds(5)));
        registries.forEach(MetricsRegistry::close);
    }
}
