package io.millrace.schemaregistry.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.List;
import java.util.Optional;

/**
 * The routes of Confluent's Schema Registry REST API, each turned into a call on the
 * {@link SchemaRegistry} and a JSON body of the same shape as Confluent's:
 *
 * <pre>
 * GET    /subjects                                   ["a-value", ...]          (?deleted=true, ?deletedOnly=true, ?subjectPrefix=a)
 * POST   /subjects/{s}                               {"subject","version","id","schema"}   look up
 * DELETE /subjects/{s}                               [1, 2]                    (?permanent=true)
 * GET    /subjects/{s}/versions                      [1, 2]                    (?deleted=true, ?deletedOnly=true)
 * POST   /subjects/{s}/versions                      {"id": 1}                 register
 * GET    /subjects/{s}/versions/{v|latest}           {"subject","version","id","schema"}
 * GET    /subjects/{s}/versions/{v|latest}/schema    the schema itself
 * GET    /subjects/{s}/versions/{v|latest}/referencedby   []                   (no references: they are refused)
 * DELETE /subjects/{s}/versions/{v|latest}           1                         (?permanent=true)
 * GET    /schemas/ids/{id}                           {"schema": "..."}
 * GET    /schemas/ids/{id}/schema                    the schema itself
 * GET    /schemas/ids/{id}/versions                  [{"subject","version"}]   (?deleted=true)
 * GET    /schemas/ids/{id}/subjects                  ["a-value", ...]          (?deleted=true)
 * GET    /schemas/types                              ["AVRO"]
 * POST   /compatibility/subjects/{s}/versions[/{v|latest}]   {"is_compatible": true} (?verbose=true: "messages")
 * GET    /config[/{s}]                               {"compatibilityLevel": "BACKWARD"}
 * PUT    /config[/{s}]                               {"compatibility": "FULL"}
 * DELETE /config[/{s}]                               {"compatibilityLevel": "FULL"}   the level removed
 * GET    /mode[/{s}]                                 {"mode": "READWRITE"}    (a subject's: ?defaultToGlobal=true)
 * PUT    /mode[/{s}]                                 {"mode": "IMPORT"}       READWRITE, READONLY or IMPORT
 * DELETE /mode/{s}                                   {"mode": "IMPORT"}       the subject's own mode, removed
 * </pre>
 *
 * <p>In IMPORT mode a registration brings its id ({"schema": "...", "id": 41}) and keeps it; in READONLY
 * mode registrations, deletions and level changes are refused (42205), as Confluent's registry does. A subject's
 * own mode, where set, stands in for the registry's for that subject.
 */
public final class RegistryApi {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final SchemaRegistry registry;

    public RegistryApi(SchemaRegistry registry) {
        this.registry = registry;
    }

    public ApiResponse handle(ApiRequest request) {
        List<String> path = request.path();
        if (path.isEmpty()) {
            return expect(request, "GET", () -> JSON.createObjectNode());
        }
        switch (path.get(0)) {
            case "subjects": return subjects(request, path.size());
            case "schemas": return schemas(request, path);
            case "compatibility": return compatibility(request, path);
            case "config": return config(request, path.size());
            case "mode": return mode(request, path.size());
            default: throw notFound(request);
        }
    }

    private ApiResponse subjects(ApiRequest request, int depth) {
        boolean deleted = request.flag("deleted");
        if (depth == 1) {
            return expect(request, "GET", () -> array(registry.subjects(request.versionFilter(), request.subjectPrefix())));
        }
        String subject = request.segment(1);
        if (depth == 2) {
            return switch (request.method()) {
                case "POST" -> respond(subjectSchema(registry.lookup(subject, request.schemaFromBody(), deleted)));
                case "DELETE" -> respond(array(registry.deleteSubject(subject, request.flag("permanent"))));
                default -> throw methodNotAllowed(request);
            };
        }
        if (!"versions".equals(request.segment(2))) {
            throw notFound(request);
        }
        return depth == 3 ? versions(request, subject) : version(request, subject, depth);
    }

    private ApiResponse versions(ApiRequest request, String subject) {
        return switch (request.method()) {
            case "GET" -> respond(array(registry.versions(subject, request.versionFilter())));
            case "POST" -> respond(JSON.createObjectNode().put("id", registry.register(subject, request.schemaFromBody(),
                givenId(request.jsonBody()))));
            default -> throw methodNotAllowed(request);
        };
    }

    private ApiResponse version(ApiRequest request, String subject, int depth) {
        String version = request.segment(3);
        if (depth == 5 && "schema".equals(request.segment(4))) {
            return expect(request, "GET", () -> rawSchema(registry.version(subject, version, request.flag("deleted")).schema()));
        }
        if (depth == 5 && "referencedby".equals(request.segment(4))) {
            // References are refused at registration, so no schema refers to another; the version must exist all the same.
            return expect(request, "GET", () -> {
                registry.version(subject, version, request.flag("deleted"));
                return JSON.createArrayNode();
            });
        }
        if (depth != 4) {
            throw notFound(request);
        }
        return switch (request.method()) {
            case "GET" -> respond(subjectSchema(registry.version(subject, version, request.flag("deleted"))));
            case "DELETE" -> respond(JSON.getNodeFactory().numberNode(registry.deleteVersion(subject, version, request.flag("permanent"))));
            default -> throw methodNotAllowed(request);
        };
    }

    private ApiResponse schemas(ApiRequest request, List<String> path) {
        if (path.size() == 2 && "types".equals(path.get(1))) {
            return expect(request, "GET", () -> array(List.of("AVRO")));
        }
        if (path.size() < 3 || path.size() > 4 || !"ids".equals(path.get(1))) {
            throw notFound(request);
        }
        int id = parseId(path.get(2));
        String tail = path.size() == 4 ? path.get(3) : "";
        return switch (tail) {
            case "" -> expect(request, "GET", () -> JSON.createObjectNode().put("schema", registry.schemaById(id).toString()));
            case "schema" -> expect(request, "GET", () -> rawSchema(registry.schemaById(id).toString()));
            case "versions" -> expect(request, "GET", () -> subjectVersions(registry.versionsOfId(id, request.flag("deleted"))));
            case "subjects" -> expect(request, "GET", () -> array(registry.versionsOfId(id, request.flag("deleted")).stream()
                .map(SubjectSchema::subject).distinct().sorted().toList()));
            default -> throw notFound(request);
        };
    }

    private ApiResponse compatibility(ApiRequest request, List<String> path) {
        if (path.size() < 4 || path.size() > 5 || !"subjects".equals(path.get(1)) || !"versions".equals(path.get(3))) {
            throw notFound(request);
        }
        String version = path.size() == 5 ? path.get(4) : null;
        return expect(request, "POST", () -> {
            List<String> reasons = registry.incompatibilities(path.get(2), version, request.schemaFromBody());
            ObjectNode body = JSON.createObjectNode().put("is_compatible", reasons.isEmpty());
            if (request.flag("verbose")) {
                body.set("messages", array(reasons));
            }
            return body;
        });
    }

    private ApiResponse config(ApiRequest request, int depth) {
        if (depth > 2) {
            throw notFound(request);
        }
        String subject = depth == 2 ? request.segment(1) : null;
        return switch (request.method()) {
            case "GET" -> respond(level("compatibilityLevel", readLevel(subject, request.flag("defaultToGlobal"))));
            case "PUT" -> respond(level("compatibility", writeLevel(subject, request.jsonBody())));
            case "DELETE" -> respond(level("compatibilityLevel",
                subject == null ? registry.deleteGlobalLevel() : registry.deleteSubjectLevel(subject)));
            default -> throw methodNotAllowed(request);
        };
    }

    private ApiResponse mode(ApiRequest request, int depth) {
        if (depth > 2) {
            throw notFound(request);
        }
        String subject = depth == 2 ? request.segment(1) : null;
        return switch (request.method()) {
            case "GET" -> respond(mode(readMode(subject, request.flag("defaultToGlobal"))));
            case "PUT" -> {
                RegistryMode mode = RegistryMode.parse(request.jsonBody().path("mode").asText(""));
                if (subject == null) {
                    registry.setMode(mode);
                } else {
                    registry.setSubjectMode(subject, mode);
                }
                yield respond(mode(mode));
            }
            case "DELETE" -> {
                if (subject == null) {
                    throw methodNotAllowed(request);
                }
                yield respond(mode(registry.deleteSubjectMode(subject)));
            }
            default -> throw methodNotAllowed(request);
        };
    }

    private RegistryMode readMode(String subject, boolean defaultToGlobal) {
        if (subject == null) {
            return registry.mode();
        }
        Optional<RegistryMode> own = registry.subjectMode(subject);
        if (own.isEmpty() && !defaultToGlobal) {
            throw SchemaRegistry.subjectModeNotConfigured(subject);
        }
        return own.orElseGet(registry::mode);
    }

    private static ObjectNode mode(RegistryMode mode) {
        return JSON.createObjectNode().put("mode", mode.name());
    }

    private static java.util.OptionalInt givenId(JsonNode body) {
        JsonNode id = body.get("id");
        if (id == null || id.isNull()) {
            return java.util.OptionalInt.empty();
        }
        if (!id.canConvertToInt() || id.asInt() <= 0) {
            throw RegistryError.MALFORMED_REQUEST.exception("\"id\" must be a positive integer, not " + id);
        }
        return java.util.OptionalInt.of(id.asInt());
    }

    private CompatibilityLevel readLevel(String subject, boolean defaultToGlobal) {
        if (subject == null) {
            return registry.globalLevel();
        }
        Optional<CompatibilityLevel> own = registry.subjectLevel(subject);
        if (own.isEmpty() && !defaultToGlobal) {
            throw RegistryError.SUBJECT_LEVEL_COMPATIBILITY_NOT_CONFIGURED.exception("Subject '" + subject
                + "' does not have subject-level compatibility configured");
        }
        return own.orElseGet(registry::globalLevel);
    }

    private CompatibilityLevel writeLevel(String subject, JsonNode body) {
        String name = body.path("compatibility").asText(null);
        CompatibilityLevel level = name == null ? null : CompatibilityLevel.forName(name);
        if (level == null) {
            throw RegistryError.INVALID_COMPATIBILITY_LEVEL.exception("Invalid compatibility level " + name
                + "; valid values are " + String.join(", ", CompatibilityLevel.names()));
        }
        if (subject == null) {
            registry.setGlobalLevel(level);
        } else {
            registry.setSubjectLevel(subject, level);
        }
        return level;
    }

    private static int parseId(String id) {
        try {
            return Integer.parseInt(id);
        } catch (NumberFormatException e) {
            throw RegistryError.SCHEMA_NOT_FOUND.exception("Schema " + id + " not found");
        }
    }

    private static ObjectNode subjectSchema(SubjectSchema schema) {
        return JSON.createObjectNode().put("subject", schema.subject()).put("version", schema.version())
            .put("id", schema.id()).put("schema", schema.schema());
    }

    private static ArrayNode subjectVersions(List<SubjectSchema> schemas) {
        ArrayNode array = JSON.createArrayNode();
        schemas.forEach(s -> array.addObject().put("subject", s.subject()).put("version", s.version()));
        return array;
    }

    /** The schema as the body itself, as Confluent's .../schema routes answer. */
    private static JsonNode rawSchema(String schema) {
        try {
            return JSON.readTree(schema);
        } catch (java.io.IOException e) {
            return TextNode.valueOf(schema);
        }
    }

    private static ObjectNode level(String field, CompatibilityLevel level) {
        return JSON.createObjectNode().put(field, level.name());
    }

    private static ArrayNode array(List<?> values) {
        return JSON.valueToTree(values);
    }

    private static ApiResponse respond(JsonNode body) {
        return new ApiResponse(body);
    }

    private static ApiResponse expect(ApiRequest request, String method, java.util.function.Supplier<JsonNode> body) {
        if (!method.equals(request.method())) {
            throw methodNotAllowed(request);
        }
        return respond(body.get());
    }

    private static RegistryException notFound(ApiRequest request) {
        return RegistryError.NOT_FOUND.exception("HTTP 404 Not Found: no resource at /" + String.join("/", request.path()));
    }

    private static RegistryException methodNotAllowed(ApiRequest request) {
        return RegistryError.METHOD_NOT_ALLOWED.exception("HTTP 405 Method Not Allowed: " + request.method()
            + " /" + String.join("/", request.path()));
    }
}
