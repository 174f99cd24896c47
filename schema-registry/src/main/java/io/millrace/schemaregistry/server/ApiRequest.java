package io.millrace.schemaregistry.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One REST request, apart from Netty: method, the decoded path segments, query parameters and
 * the body. Each path segment is decoded on its own, so a subject may contain an encoded '/'.
 */
public final class ApiRequest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String method;
    private final List<String> path;
    private final Map<String, List<String>> parameters;
    private final byte[] body;

    public ApiRequest(String method, String uri, byte[] body) {
        QueryStringDecoder decoder = new QueryStringDecoder(uri);
        this.method = method;
        this.path = segments(decoder.rawPath());
        this.parameters = decoder.parameters();
        this.body = body;
    }

    public String method() {
        return method;
    }

    public List<String> path() {
        return path;
    }

    public String segment(int index) {
        return path.get(index);
    }

    public boolean flag(String name) {
        List<String> values = parameters.get(name);
        return values != null && !values.isEmpty() && Boolean.parseBoolean(values.get(0));
    }

    /** Which versions a listing shows, from {@code deleted} and {@code deletedOnly}. */
    public VersionFilter versionFilter() {
        return VersionFilter.of(flag("deleted"), flag("deletedOnly"));
    }

    /** {@code subjectPrefix}, empty when absent; Confluent's ":*:" (every context) is every subject too. */
    public String subjectPrefix() {
        List<String> values = parameters.get("subjectPrefix");
        String prefix = values == null || values.isEmpty() ? "" : values.get(0);
        return ":*:".equals(prefix) ? "" : prefix;
    }

    /** The body as a JSON object; MALFORMED_REQUEST (400) when it is not one. */
    public JsonNode jsonBody() {
        if (body.length == 0) {
            throw RegistryError.MALFORMED_REQUEST.exception("The request has no body; a JSON object is expected");
        }
        JsonNode node;
        try {
            node = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw RegistryError.MALFORMED_REQUEST.exception("Malformed JSON in the request body: " + e.getOriginalMessage());
        } catch (java.io.IOException e) {
            throw RegistryError.MALFORMED_REQUEST.exception("Unreadable request body: " + e.getMessage());
        }
        if (node == null || !node.isObject()) {
            throw RegistryError.MALFORMED_REQUEST.exception("The request body must be a JSON object");
        }
        return node;
    }

    /** The "schema" of a body such as {"schema": "..."}; only Avro schemas are taken. */
    public String schemaFromBody() {
        JsonNode body = jsonBody();
        String type = body.path("schemaType").asText("AVRO");
        if (!"AVRO".equalsIgnoreCase(type)) {
            throw RegistryError.INVALID_SCHEMA.exception("Schema type " + type + " is not supported; only AVRO is");
        }
        JsonNode references = body.path("references");
        if (references.isArray() && references.size() > 0) {
            throw RegistryError.INVALID_SCHEMA.exception("Schema references are not supported");
        }
        JsonNode schema = body.get("schema");
        if (schema == null || !schema.isTextual()) {
            throw RegistryError.INVALID_SCHEMA.exception("The body needs a \"schema\" string, e.g. {\"schema\": \"\\\"string\\\"\"}");
        }
        return schema.asText();
    }

    private static List<String> segments(String rawPath) {
        List<String> segments = new ArrayList<>();
        for (String segment : rawPath.split("/")) {
            if (!segment.isEmpty()) {
                // '+' is a plus in a path, not a space as in a query
                segments.add(QueryStringDecoder.decodeComponent(segment.replace("+", "%2B")));
            }
        }
        return List.copyOf(segments);
    }
}
