package io.millrace.schemaregistry.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side of the client: one request, retried on a connection error or a 5xx answer
 * (over the configured URLs in turn, with doubling backoff), its JSON answer parsed, and an
 * error answer turned into a {@link SchemaRegistryClientException}, the one place that happens.
 * Thread-safe.
 */
final class RegistryTransport {

    private static final Logger log = LoggerFactory.getLogger(RegistryTransport.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

    private final SchemaRegistryClientConfig config;
    private final HttpClient http;

    RegistryTransport(SchemaRegistryClientConfig config) {
        this.config = config;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofMillis(config.connectTimeoutMs())).build();
    }

    /** {@code method} on {@code path} (already encoded) with an optional JSON body; the JSON answer. */
    JsonNode send(String method, String path, JsonNode body) {
        List<URI> urls = config.urls();
        SchemaRegistryClientException last = null;
        for (int attempt = 0; attempt <= config.maxRetries(); attempt++) {
            if (attempt > 0) {
                backoff(attempt);
            }
            URI url = urls.get(attempt % urls.size());
            try {
                return answer(method, path, http.send(request(url, method, path, body), BodyHandlers.ofString()));
            } catch (RetriableException e) {
                last = e.failure;
            } catch (IOException e) {
                last = new SchemaRegistryClientException("No answer from the schema registry at " + url + ": " + e, 0, 0, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SchemaRegistryClientException("Interrupted while calling the schema registry", 0, 0, e);
            }
            log.debug("{} {} failed (attempt {}): {}", method, path, attempt + 1, last.getMessage());
        }
        throw last;
    }

    private HttpRequest request(URI base, String method, String path, JsonNode body) throws IOException {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + path))
            .timeout(Duration.ofMillis(config.requestTimeoutMs()))
            .header("Accept", CONTENT_TYPE + ", application/json");
        if (body == null) {
            return builder.method(method, BodyPublishers.noBody()).build();
        }
        return builder.header("Content-Type", CONTENT_TYPE)
            .method(method, BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body))).build();
    }

    private static JsonNode answer(String method, String path, HttpResponse<String> response) throws RetriableException {
        int status = response.statusCode();
        JsonNode body = parse(response.body());
        if (status >= 200 && status < 300) {
            return body;
        }
        int errorCode = body.path("error_code").asInt(status);
        String message = body.path("message").asText("HTTP " + status);
        SchemaRegistryClientException failure = new SchemaRegistryClientException(method + " " + path + ": " + message,
            status, errorCode, null);
        if (status >= 500) {
            throw new RetriableException(failure);
        }
        throw failure;
    }

    private static JsonNode parse(String body) {
        try {
            return body == null || body.isEmpty() ? JSON.createObjectNode() : JSON.readTree(body);
        } catch (IOException e) {
            return JSON.createObjectNode().put("message", body);
        }
    }

    private void backoff(int attempt) {
        long waitMs = (long) config.retryBackoffMs() << Math.min(attempt - 1, 10);
        try {
            TimeUnit.MILLISECONDS.sleep(waitMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SchemaRegistryClientException("Interrupted while waiting to retry", 0, 0, e);
        }
    }

    /** A 5xx answer, worth another try. */
    private static final class RetriableException extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient SchemaRegistryClientException failure;

        RetriableException(SchemaRegistryClientException failure) {
            super(failure.getMessage(), null, false, false);
            this.failure = failure;
        }
    }
}
