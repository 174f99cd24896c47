package io.millrace.schemaregistry.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;

/** Raw HTTP against a registry for contract tests: the status and the parsed JSON answer. */
public final class RegistryHttp {

    public static final ObjectMapper JSON = new ObjectMapper();

    /** One answer. */
    public record Answer(int status, String contentType, JsonNode body) {
        public int errorCode() {
            return body.path("error_code").asInt();
        }

        @Override
        public String toString() {
            return status + " " + body;
        }
    }

    private final String baseUrl;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();

    public RegistryHttp(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    public Answer get(String path) {
        return send("GET", path, null, null);
    }

    public Answer delete(String path) {
        return send("DELETE", path, null, null);
    }

    public Answer post(String path, String body) {
        return send("POST", path, body, "application/vnd.schemaregistry.v1+json");
    }

    public Answer put(String path, String body) {
        return send("PUT", path, body, "application/json");
    }

    /** POST {"schema": schema}. */
    public Answer postSchema(String path, String schema) {
        return post(path, JSON.createObjectNode().put("schema", schema).toString());
    }

    public Answer send(String method, String path, String body, String contentType) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(20));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        request.method(method, body == null ? BodyPublishers.noBody() : BodyPublishers.ofString(body));
        try {
            var response = http.send(request.build(), BodyHandlers.ofString());
            String text = response.body();
            JsonNode json = text.isEmpty() ? JSON.nullNode() : JSON.readTree(text);
            return new Answer(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""), json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
