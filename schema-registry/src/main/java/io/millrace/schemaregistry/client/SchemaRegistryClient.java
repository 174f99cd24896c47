package io.millrace.schemaregistry.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;

/**
 * A client of the schema registry's REST API (Millrace's or Confluent's). It caches what never
 * changes: the schema of an id (ids are immutable, so after the first lookup an id never costs
 * another request) and the id of a schema in a subject, once registered or looked up. Requests
 * are retried on connection errors and 5xx answers (see {@link SchemaRegistryClientConfig}).
 * Errors come as {@link SchemaRegistryClientException} with the registry's status and error code.
 * Thread-safe; share one per process.
 */
public final class SchemaRegistryClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final RegistryTransport transport;
    private final Map<Integer, Schema> schemasById = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Integer>> idsBySubject = new ConcurrentHashMap<>();

    public SchemaRegistryClient(SchemaRegistryClientConfig config) {
        this.transport = new RegistryTransport(config);
    }

    public SchemaRegistryClient(Map<?, ?> props) {
        this(new SchemaRegistryClientConfig(props));
    }

    /** Registers {@code schema} under {@code subject} (if it is not there yet) and returns its id. */
    public int register(String subject, Schema schema) {
        Integer cached = cachedId(subject, schema);
        if (cached != null) {
            return cached;
        }
        int id = transport.send("POST", subjectPath(subject) + "/versions", schemaBody(schema)).get("id").asInt();
        remember(subject, schema, id);
        return id;
    }

    /**
     * Registers {@code schema} under {@code subject} with the id it has elsewhere (another data centre's
     * registry), which this registry keeps; only a registry in IMPORT mode takes it (42205 otherwise).
     */
    public int importSchema(String subject, int id, Schema schema) {
        ObjectNode body = schemaBody(schema);
        body.put("id", id);
        int kept = transport.send("POST", subjectPath(subject) + "/versions", body).get("id").asInt();
        remember(subject, schema, kept);
        schemasById.putIfAbsent(kept, schema);
        return kept;
    }

    /** The subjects (and versions) that hold schema {@code id}: the subject names, in the registry's order. */
    public List<String> subjectsOf(int id) {
        List<String> subjects = new ArrayList<>();
        transport.send("GET", "/schemas/ids/" + id + "/versions", null).forEach(v -> subjects.add(v.get("subject").asText()));
        return subjects;
    }

    /** READWRITE, READONLY or IMPORT. */
    public String getMode() {
        return transport.send("GET", "/mode", null).get("mode").asText();
    }

    public void setMode(String mode) {
        transport.send("PUT", "/mode", JSON.createObjectNode().put("mode", mode));
    }

    /** The id of {@code schema} in {@code subject}, which must be registered there (404 / 40403 otherwise). */
    public int getId(String subject, Schema schema) {
        Integer cached = cachedId(subject, schema);
        if (cached != null) {
            return cached;
        }
        int id = transport.send("POST", subjectPath(subject), schemaBody(schema)).get("id").asInt();
        remember(subject, schema, id);
        return id;
    }

    /** The schema with {@code id}; asked of the registry once, then cached for good. */
    public Schema getById(int id) {
        Schema cached = schemasById.get(id);
        if (cached != null) {
            return cached;
        }
        // not computeIfAbsent: that would hold a lock of the map during the request
        JsonNode answer = transport.send("GET", "/schemas/ids/" + id, null);
        Schema schema = new Schema.Parser().parse(answer.get("schema").asText());
        Schema raced = schemasById.putIfAbsent(id, schema);
        return raced == null ? schema : raced;
    }

    public RegisteredSchema getLatest(String subject) {
        return getVersion(subject, "latest");
    }

    public RegisteredSchema getVersion(String subject, int version) {
        return getVersion(subject, String.valueOf(version));
    }

    public List<String> subjects() {
        return strings(transport.send("GET", "/subjects", null));
    }

    public List<Integer> versions(String subject) {
        return ints(transport.send("GET", subjectPath(subject) + "/versions", null));
    }

    /** Whether {@code schema} could be registered under {@code subject} at the subject's level. */
    public boolean isCompatible(String subject, Schema schema) {
        String path = "/compatibility" + subjectPath(subject) + "/versions";
        return transport.send("POST", path, schemaBody(schema)).get("is_compatible").asBoolean();
    }

    /** Soft-deletes the subject (or, when {@code permanent}, removes it once soft-deleted); the versions deleted. */
    public List<Integer> deleteSubject(String subject, boolean permanent) {
        idsBySubject.remove(subject);
        return ints(transport.send("DELETE", subjectPath(subject) + (permanent ? "?permanent=true" : ""), null));
    }

    /** The subject's compatibility level, or the global one when {@code subject} is null or has none. */
    public String getCompatibility(String subject) {
        String path = subject == null ? "/config" : "/config/" + encode(subject) + "?defaultToGlobal=true";
        return transport.send("GET", path, null).get("compatibilityLevel").asText();
    }

    /** Sets the subject's level (the global one when {@code subject} is null). */
    public void setCompatibility(String subject, String level) {
        String path = subject == null ? "/config" : "/config/" + encode(subject);
        transport.send("PUT", path, JSON.createObjectNode().put("compatibility", level));
    }

    private RegisteredSchema getVersion(String subject, String version) {
        JsonNode answer = transport.send("GET", subjectPath(subject) + "/versions/" + version, null);
        int id = answer.get("id").asInt();
        Schema schema = schemasById.computeIfAbsent(id, key -> new Schema.Parser().parse(answer.get("schema").asText()));
        return new RegisteredSchema(answer.get("subject").asText(), answer.get("version").asInt(), id, schema);
    }

    private Integer cachedId(String subject, Schema schema) {
        Map<String, Integer> ids = idsBySubject.get(subject);
        return ids == null ? null : ids.get(schema.toString());
    }

    private void remember(String subject, Schema schema, int id) {
        idsBySubject.computeIfAbsent(subject, key -> new ConcurrentHashMap<>()).put(schema.toString(), id);
        schemasById.putIfAbsent(id, schema);
    }

    private static ObjectNode schemaBody(Schema schema) {
        return JSON.createObjectNode().put("schema", schema.toString());
    }

    private static String subjectPath(String subject) {
        return "/subjects/" + encode(subject);
    }

    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(node -> values.add(node.asText()));
        return values;
    }

    private static List<Integer> ints(JsonNode array) {
        List<Integer> values = new ArrayList<>();
        array.forEach(node -> values.add(node.asInt()));
        return values;
    }
}
