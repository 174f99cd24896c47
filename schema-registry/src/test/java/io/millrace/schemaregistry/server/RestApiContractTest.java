package io.millrace.schemaregistry.server;

import static io.millrace.schemaregistry.server.TestSchemas.field;
import static io.millrace.schemaregistry.server.TestSchemas.pageView;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.millrace.schemaregistry.server.RegistryHttp.Answer;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * The REST API's contract, endpoint by endpoint: status codes, JSON bodies and Confluent's
 * error codes, against a real server on a real ZooKeeper. Every test uses subjects of its own.
 */
public class RestApiContractTest {

    @ClassRule
    public static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();

    private static final AtomicInteger SUBJECTS = new AtomicInteger();
    private static SchemaRegistryServer server;
    private static RegistryHttp http;

    @BeforeClass
    public static void startRegistry() throws Exception {
        server = Registries.start(ZOOKEEPER);
        http = new RegistryHttp(server.urls().get(0));
    }

    @AfterClass
    public static void stopRegistry() {
        server.close();
    }

    private static String newSubject() {
        return "contract-" + SUBJECTS.incrementAndGet() + "-value";
    }

    @Test
    public void registeringAnswersWithAnIdAndTheSameSchemaGetsTheSameId() {
        String subject = newSubject();
        Answer first = http.postSchema("/subjects/" + subject + "/versions", pageView());
        assertEquals(first.toString(), 200, first.status());
        assertEquals(1, first.body().size());
        int id = first.body().get("id").asInt();
        String sameSchemaOtherSpelling = "{ \"name\" : \"PageView\", \"type\": \"record\", \"namespace\":\"io.millrace.test\","
            + " \"fields\": [ {\"type\": {\"type\": \"string\"}, \"name\": \"url\"} ] }";
        assertEquals(id, http.postSchema("/subjects/" + subject + "/versions", sameSchemaOtherSpelling).body().get("id").asInt());
        assertEquals(id, http.postSchema("/subjects/" + newSubject() + "/versions", pageView()).body().get("id").asInt());
        assertEquals("[1]", http.get("/subjects/" + subject + "/versions").body().toString());
    }

    @Test
    public void aNewCompatibleSchemaBecomesTheNextVersionWithANewId() {
        String subject = newSubject();
        int v1 = register(subject, pageView());
        int v2 = register(subject, pageView(field("referrer", "\"string\"", "\"\"")));
        assertTrue(v2 != v1);
        assertEquals("[1,2]", http.get("/subjects/" + subject + "/versions").body().toString());
        JsonNode latest = http.get("/subjects/" + subject + "/versions/latest").body();
        assertEquals(subject, latest.get("subject").asText());
        assertEquals(2, latest.get("version").asInt());
        assertEquals(v2, latest.get("id").asInt());
        assertTrue(latest.get("schema").asText().contains("referrer"));
        assertEquals(v1, http.get("/subjects/" + subject + "/versions/1").body().get("id").asInt());
        assertEquals(v2, http.get("/subjects/" + subject + "/versions/-1").body().get("id").asInt());
    }

    @Test
    public void theSchemaRouteAnswersWithTheSchemaItself() {
        String subject = newSubject();
        register(subject, pageView());
        Answer raw = http.get("/subjects/" + subject + "/versions/1/schema");
        assertEquals(200, raw.status());
        assertEquals("PageView", raw.body().get("name").asText());
        assertEquals("record", raw.body().get("type").asText());
    }

    @Test
    public void lookingUpASchemaFindsItsVersion() {
        String subject = newSubject();
        int id = register(subject, pageView());
        register(subject, pageView(field("referrer", "\"string\"", "\"\"")));
        Answer found = http.postSchema("/subjects/" + subject, pageView());
        assertEquals(found.toString(), 200, found.status());
        assertEquals(subject, found.body().get("subject").asText());
        assertEquals(1, found.body().get("version").asInt());
        assertEquals(id, found.body().get("id").asInt());
        assertTrue(found.body().get("schema").asText().contains("PageView"));

        assertError(http.postSchema("/subjects/" + subject, pageView(field("other", "\"int\"", "0"))), 404, 40403);
        assertError(http.postSchema("/subjects/" + newSubject(), pageView()), 404, 40401);
    }

    @Test
    public void subjectsAreListedAndSoftDeletedOnesOnlyOnRequest() {
        String kept = newSubject();
        String deleted = newSubject();
        register(kept, pageView());
        register(deleted, pageView());
        http.delete("/subjects/" + deleted);
        List<String> live = texts(http.get("/subjects").body());
        assertTrue(live.contains(kept));
        assertFalse(live.contains(deleted));
        assertTrue(texts(http.get("/subjects?deleted=true").body()).contains(deleted));
    }

    @Test
    public void unknownSubjectsVersionsAndBadVersionsHaveTheirOwnErrors() {
        String subject = newSubject();
        register(subject, pageView());
        assertError(http.get("/subjects/" + newSubject() + "/versions"), 404, 40401);
        assertError(http.get("/subjects/" + newSubject() + "/versions/1"), 404, 40401);
        assertError(http.get("/subjects/" + subject + "/versions/7"), 404, 40402);
        assertError(http.get("/subjects/" + subject + "/versions/abc"), 422, 42202);
        assertError(http.get("/subjects/" + subject + "/versions/0"), 422, 42202);
    }

    @Test
    public void schemasAreServedById() {
        String subject = newSubject();
        int id = register(subject, pageView(field("ms", "\"long\"", "0")));
        Answer byId = http.get("/schemas/ids/" + id);
        assertEquals(200, byId.status());
        assertTrue(byId.body().get("schema").asText().contains("\"ms\""));
        assertEquals("PageView", http.get("/schemas/ids/" + id + "/schema").body().get("name").asText());
        Answer versions = http.get("/schemas/ids/" + id + "/versions");
        assertEquals("[{\"subject\":\"" + subject + "\",\"version\":1}]", versions.body().toString());
        assertError(http.get("/schemas/ids/999999"), 404, 40403);
        assertError(http.get("/schemas/ids/x"), 404, 40403);
        assertEquals("[\"AVRO\"]", http.get("/schemas/types").body().toString());
    }

    @Test
    public void anIdNamesTheSubjectsThatUseItAndWithDeletedTheSoftDeletedOnes() {
        String first = newSubject();
        String second = newSubject();
        String both = Stream.of(first, second).sorted().map(s -> "\"" + s + "\"").collect(Collectors.joining(",", "[", "]"));
        String schema = pageView(field("session", "\"string\"", "\"\""));
        int id = register(first, schema);
        assertEquals(id, register(second, schema));
        assertEquals(both, http.get("/schemas/ids/" + id + "/subjects").body().toString());
        assertEquals(1, http.delete("/subjects/" + second + "/versions/1").body().asInt());
        assertEquals("[\"" + first + "\"]", http.get("/schemas/ids/" + id + "/subjects").body().toString());
        assertEquals("[{\"subject\":\"" + first + "\",\"version\":1}]",
            http.get("/schemas/ids/" + id + "/versions").body().toString());
        assertEquals(both, http.get("/schemas/ids/" + id + "/subjects?deleted=true").body().toString());
        assertEquals(2, http.get("/schemas/ids/" + id + "/versions?deleted=true").body().size());
        assertError(http.get("/schemas/ids/999999/subjects"), 404, 40403);
    }

    @Test
    public void listingsShowTheSoftDeletedAloneWithDeletedOnlyAndFilterSubjectsByPrefix() {
        String kept = newSubject();
        String dropped = newSubject();
        register(kept, pageView());
        register(kept, pageView(field("referrer", "\"string\"", "\"\"")));
        register(dropped, pageView());
        assertEquals(1, http.delete("/subjects/" + kept + "/versions/1").body().asInt());
        assertEquals("[1]", http.delete("/subjects/" + dropped).body().toString());

        assertEquals("[2]", http.get("/subjects/" + kept + "/versions").body().toString());
        assertEquals("[1]", http.get("/subjects/" + kept + "/versions?deletedOnly=true").body().toString());
        assertEquals("[1,2]", http.get("/subjects/" + kept + "/versions?deleted=true").body().toString());
        assertEquals("[1]", http.get("/subjects/" + dropped + "/versions?deletedOnly=true").body().toString());
        String fresh = newSubject();
        register(fresh, pageView());
        assertEquals("[]", http.get("/subjects/" + fresh + "/versions?deletedOnly=true").body().toString());
        assertError(http.get("/subjects/" + newSubject() + "/versions?deletedOnly=true"), 404, 40401);

        List<String> deletedOnly = texts(http.get("/subjects?deletedOnly=true").body());
        assertTrue(deletedOnly.toString(), deletedOnly.contains(dropped) && !deletedOnly.contains(kept) && !deletedOnly.contains(fresh));
        List<String> live = texts(http.get("/subjects").body());
        assertTrue(live.toString(), live.contains(kept) && !live.contains(dropped));
        assertEquals(List.of(kept), texts(http.get("/subjects?subjectPrefix=" + kept).body()));
        assertEquals(List.of(), texts(http.get("/subjects?subjectPrefix=nothing-starts-so").body()));
        assertEquals(live, texts(http.get("/subjects?subjectPrefix=:*:").body()));
    }

    @Test
    public void noSchemaIsReferencedByAnotherSinceReferencesAreRefused() {
        String subject = newSubject();
        register(subject, pageView());
        assertEquals("[]", http.get("/subjects/" + subject + "/versions/1/referencedby").body().toString());
        assertEquals("[]", http.get("/subjects/" + subject + "/versions/latest/referencedby").body().toString());
        assertError(http.get("/subjects/" + subject + "/versions/2/referencedby"), 404, 40402);
        assertError(http.get("/subjects/" + newSubject() + "/versions/1/referencedby"), 404, 40401);
    }

    @Test
    public void aSubjectIsSoftDeletedFirstAndPermanentlyAfter() {
        String subject = newSubject();
        register(subject, pageView());
        register(subject, pageView(field("referrer", "\"string\"", "\"\"")));
        assertError(http.delete("/subjects/" + subject + "?permanent=true"), 404, 40405);
        assertEquals("[1,2]", http.delete("/subjects/" + subject).body().toString());
        assertError(http.get("/subjects/" + subject + "/versions"), 404, 40401);
        assertEquals("[1,2]", http.get("/subjects/" + subject + "/versions?deleted=true").body().toString());
        assertError(http.delete("/subjects/" + subject), 404, 40404);
        assertEquals("[1,2]", http.delete("/subjects/" + subject + "?permanent=true").body().toString());
        assertError(http.get("/subjects/" + subject + "/versions?deleted=true"), 404, 40401);
        assertError(http.delete("/subjects/" + subject), 404, 40401);
    }

    @Test
    public void aVersionIsSoftDeletedFirstAndPermanentlyAfter() {
        String subject = newSubject();
        int id = register(subject, pageView());
        register(subject, pageView(field("referrer", "\"string\"", "\"\"")));
        assertError(http.delete("/subjects/" + subject + "/versions/1?permanent=true"), 404, 40407);
        Answer deleted = http.delete("/subjects/" + subject + "/versions/1");
        assertEquals(200, deleted.status());
        assertEquals(1, deleted.body().asInt());
        assertEquals("[2]", http.get("/subjects/" + subject + "/versions").body().toString());
        assertError(http.get("/subjects/" + subject + "/versions/1"), 404, 40402);
        assertEquals(id, http.get("/subjects/" + subject + "/versions/1?deleted=true").body().get("id").asInt());
        assertError(http.delete("/subjects/" + subject + "/versions/1"), 404, 40406);
        assertEquals(1, http.delete("/subjects/" + subject + "/versions/1?permanent=true").body().asInt());
        assertError(http.get("/subjects/" + subject + "/versions/1?deleted=true"), 404, 40402);
        assertEquals("ids outlive their versions", 200, http.get("/schemas/ids/" + id).status());
    }

    @Test
    public void anIncompatibleSchemaIsRefusedWithTheReason() {
        String subject = newSubject();
        register(subject, pageView());
        Answer refused = http.postSchema("/subjects/" + subject + "/versions", pageView(field("referrer", "\"string\"")));
        assertError(refused, 409, 409);
        assertTrue(refused.body().get("message").asText(), refused.body().get("message").asText().contains("referrer"));
        assertEquals("[1]", http.get("/subjects/" + subject + "/versions").body().toString());
    }

    @Test
    public void theCompatibilityRouteChecksWithoutRegistering() {
        String subject = newSubject();
        register(subject, pageView());
        String path = "/compatibility/subjects/" + subject + "/versions/latest";
        assertEquals("{\"is_compatible\":true}", http.postSchema(path, pageView(field("r", "\"string\"", "\"\""))).body().toString());
        assertEquals("{\"is_compatible\":false}", http.postSchema(path, pageView(field("r", "\"string\""))).body().toString());
        JsonNode verbose = http.postSchema(path + "?verbose=true", pageView(field("r", "\"string\""))).body();
        assertFalse(verbose.get("is_compatible").asBoolean());
        assertTrue(verbose.get("messages").toString(), verbose.get("messages").get(0).asText().contains("r"));
        assertEquals(200, http.postSchema("/compatibility/subjects/" + subject + "/versions/1", pageView()).status());
        assertTrue(http.postSchema("/compatibility/subjects/" + subject + "/versions", pageView()).body().get("is_compatible").asBoolean());
        assertError(http.postSchema("/compatibility/subjects/" + newSubject() + "/versions/latest", pageView()), 404, 40401);
        assertError(http.postSchema("/compatibility/subjects/" + subject + "/versions/9", pageView()), 404, 40402);
        assertEquals("[1]", http.get("/subjects/" + subject + "/versions").body().toString());
    }

    @Test
    public void compatibilityLevelsAreReadAndSetGloballyAndPerSubject() {
        assertEquals("{\"compatibilityLevel\":\"BACKWARD\"}", http.get("/config").body().toString());
        String subject = newSubject();
        assertError(http.get("/config/" + subject), 404, 40408);
        assertEquals("{\"compatibilityLevel\":\"BACKWARD\"}", http.get("/config/" + subject + "?defaultToGlobal=true").body().toString());
        assertEquals("{\"compatibility\":\"NONE\"}", http.put("/config/" + subject, "{\"compatibility\":\"NONE\"}").body().toString());
        assertEquals("{\"compatibilityLevel\":\"NONE\"}", http.get("/config/" + subject).body().toString());
        register(subject, pageView());
        assertEquals("NONE lets anything follow", 200,
            http.postSchema("/subjects/" + subject + "/versions", TestSchemas.record("Other", field("n", "\"int\""))).status());
        assertEquals("{\"compatibilityLevel\":\"NONE\"}", http.delete("/config/" + subject).body().toString());
        assertError(http.get("/config/" + subject), 404, 40408);
        assertError(http.put("/config/" + subject, "{\"compatibility\":\"SIDEWAYS\"}"), 422, 42203);
        assertError(http.put("/config", "{}"), 422, 42203);
    }

    @Test
    public void theGlobalLevelCanBeChangedAndRemovedLeavingSubjectLevelsAsTheyAre() {
        String subject = newSubject();
        http.put("/config/" + subject, "{\"compatibility\":\"NONE\"}");
        try {
            assertEquals("{\"compatibility\":\"FULL_TRANSITIVE\"}", http.put("/config", "{\"compatibility\":\"FULL_TRANSITIVE\"}").body().toString());
            assertEquals("{\"compatibilityLevel\":\"FULL_TRANSITIVE\"}", http.get("/config").body().toString());
            assertEquals("{\"compatibilityLevel\":\"FULL_TRANSITIVE\"}", http.delete("/config").body().toString());
            assertEquals("the configured default again", "{\"compatibilityLevel\":\"BACKWARD\"}", http.get("/config").body().toString());
            assertEquals("{\"compatibilityLevel\":\"NONE\"}", http.get("/config/" + subject).body().toString());
        } finally {
            http.put("/config", "{\"compatibility\":\"BACKWARD\"}");
            http.delete("/config/" + subject);
        }
    }

    @Test
    public void invalidAvroIsRefusedWith42201() {
        String subject = newSubject();
        assertError(http.postSchema("/subjects/" + subject + "/versions", "{\"type\":\"record\",\"name\":\"X\"}"), 422, 42201);
        assertError(http.postSchema("/subjects/" + subject + "/versions", "{\"type\":\"strang\"}"), 422, 42201);
        Answer notJson = http.postSchema("/subjects/" + subject + "/versions", "not json at all {");
        assertError(notJson, 422, 42201);
        String message = notJson.body().get("message").asText();
        assertTrue(message, message.startsWith("Invalid schema: not valid JSON: Unrecognized token 'not'")
            && message.endsWith("(line 1, column 1)") && !message.contains("jackson"));
        Answer unclosed = http.postSchema("/subjects/" + subject + "/versions", "{\"type\": \"record\", \"name\": \"A\", \"fields\": [}");
        assertError(unclosed, 422, 42201);
        message = unclosed.body().get("message").asText();
        assertTrue(message, message.contains("expected ']'") && message.contains("line: 1, column: 43")
            && !message.contains("Source") && !message.contains("jackson"));
        assertError(http.postSchema("/subjects/" + subject + "/versions", pageView(field("n", "\"int\"", "\"zero\""))), 422, 42201);
        assertError(http.post("/subjects/" + subject + "/versions", "{\"schema\":\"\\\"string\\\"\",\"schemaType\":\"PROTOBUF\"}"), 422, 42201);
        assertError(http.post("/subjects/" + subject + "/versions", "{\"nothing\":1}"), 422, 42201);
    }

    @Test
    public void malformedJsonIsA400AndTheServerKeepsServing() {
        String subject = newSubject();
        Answer malformed = http.post("/subjects/" + subject + "/versions", "{\"schema\": ");
        assertError(malformed, 400, 400);
        assertTrue(malformed.body().get("message").asText().startsWith("Malformed JSON"));
        assertError(http.post("/subjects/" + subject + "/versions", "[1,2]"), 400, 400);
        assertError(http.post("/subjects/" + subject + "/versions", ""), 400, 400);
        assertEquals(200, http.postSchema("/subjects/" + subject + "/versions", pageView()).status());
    }

    @Test
    public void aClientSpeakingNonsenseIsAnswered400AndOthersAreStillServed() throws Exception {
        java.net.URI url = java.net.URI.create(server.urls().get(0));
        try (java.net.Socket socket = new java.net.Socket(url.getHost(), url.getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write("\u0001\u0002 nonsense\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
            assertTrue(answer, answer.startsWith("HTTP/1.1 400"));
            assertTrue(answer, answer.contains("\"error_code\":400"));
        }
        assertEquals(200, http.get("/subjects").status());
    }

    @Test
    public void aBodyOverOneMebibyteIsRefusedWith413() {
        StringBuilder doc = new StringBuilder();
        while (doc.length() <= 1024 * 1024) {
            doc.append("padding padding padding padding padding padding padding padding ");
        }
        String schema = "{\"type\":\"record\",\"name\":\"Big\",\"doc\":\"" + doc + "\",\"fields\":[]}";
        Answer tooLarge = http.postSchema("/subjects/" + newSubject() + "/versions", schema);
        assertError(tooLarge, 413, 413);
        assertEquals(200, http.get("/subjects").status());
    }

    @Test
    public void unknownRoutesAre404AndWrongMethods405() {
        assertError(http.get("/nowhere"), 404, 404);
        assertError(http.get("/subjects/a/b/c/d/e/f"), 404, 404);
        assertError(http.delete("/schemas/ids/1"), 405, 405);
        assertError(http.send("PATCH", "/subjects", null, null), 405, 405);
        assertEquals("{}", http.get("/").body().toString());
    }

    @Test
    public void answersAreSchemaRegistryJsonAndPlainJsonRequestsAreTaken() {
        Answer answer = http.get("/subjects");
        assertEquals(RegistryHttpHandler.CONTENT_TYPE, answer.contentType());
        String body = RegistryHttp.JSON.createObjectNode().put("schema", pageView()).toString();
        assertEquals(200, http.send("POST", "/subjects/" + newSubject() + "/versions", body, "application/json").status());
        assertError(http.send("POST", "/subjects/" + newSubject() + "/versions", body, "text/plain"), 415, 415);
    }

    @Test
    public void subjectNamesMayHoldSlashesSpacesAndDots() {
        for (String subject : List.of("a/b value", "..", "ünïcode+plus")) {
            String encoded = java.net.URLEncoder.encode(subject, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
            assertEquals(subject, 200, http.postSchema("/subjects/" + encoded + "/versions", pageView()).status());
            assertEquals(subject, http.get("/subjects/" + encoded + "/versions/1").body().get("subject").asText());
            assertTrue(texts(http.get("/subjects").body()).contains(subject));
        }
    }

    private static int register(String subject, String schema) {
        Answer answer = http.postSchema("/subjects/" + subject + "/versions", schema);
        assertEquals(answer.toString(), 200, answer.status());
        return answer.body().get("id").asInt();
    }

    private static void assertError(Answer answer, int status, int errorCode) {
        assertEquals(answer.toString(), status, answer.status());
        assertEquals(answer.toString(), errorCode, answer.errorCode());
        assertFalse(answer.toString(), answer.body().path("message").asText().isEmpty());
    }

    private static List<String> texts(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(n -> values.add(n.asText()));
        return values;
    }
}
