package io.millrace.schemaregistry.client;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/**
 * Which answers the client retries, against a scripted HTTP server: 5xx answers are retried,
 * 4xx answers are not, and the retries stop at schema.registry.max.retries.
 */
public class ClientRetryTest {

    private HttpServer server;
    private final AtomicInteger calls = new AtomicInteger();
    private volatile int failuresBeforeSuccess;
    private volatile int failureStatus;

    @Before
    public void startScriptedServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/schemas/ids/1", exchange -> {
            int call = calls.incrementAndGet();
            boolean fail = call <= failuresBeforeSuccess;
            String body = fail ? "{\"error_code\":" + (failureStatus >= 500 ? 50001 : 40403) + ",\"message\":\"scripted\"}"
                : "{\"schema\":\"\\\"string\\\"\"}";
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(fail ? failureStatus : 200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
    }

    @After
    public void stopScriptedServer() {
        server.stop(0);
    }

    private SchemaRegistryClient client(int maxRetries) {
        return new SchemaRegistryClient(Map.of(
            SchemaRegistryClientConfig.URL_CONFIG, "http://127.0.0.1:" + server.getAddress().getPort(),
            SchemaRegistryClientConfig.MAX_RETRIES_CONFIG, maxRetries,
            SchemaRegistryClientConfig.RETRY_BACKOFF_MS_CONFIG, 1));
    }

    @Test
    public void serverErrorsAreRetried() {
        failuresBeforeSuccess = 2;
        failureStatus = 500;
        assertEquals("\"string\"", client(3).getById(1).toString());
        assertEquals(3, calls.get());
    }

    @Test
    public void retriesStopAtTheLimitWithTheLastError() {
        failuresBeforeSuccess = 10;
        failureStatus = 503;
        SchemaRegistryClientException failure = assertThrows(SchemaRegistryClientException.class, () -> client(2).getById(1));
        assertEquals(503, failure.status());
        assertEquals(50001, failure.errorCode());
        assertEquals(3, calls.get());
    }

    @Test
    public void clientErrorsAreNotRetried() {
        failuresBeforeSuccess = 10;
        failureStatus = 404;
        SchemaRegistryClientException failure = assertThrows(SchemaRegistryClientException.class, () -> client(3).getById(1));
        assertEquals(404, failure.status());
        assertEquals(40403, failure.errorCode());
        assertEquals(1, calls.get());
    }
}
