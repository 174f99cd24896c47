package io.millrace.schemaregistry.server;

import static io.millrace.schemaregistry.server.TestSchemas.field;
import static io.millrace.schemaregistry.server.TestSchemas.pageView;
import static org.junit.Assert.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.millrace.schemaregistry.server.RegistryHttp.Answer;
import io.millrace.testkit.EmbeddedZooKeeper;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;

/**
 * A subject's own mode ({@code /mode/{subject}}, as in Confluent's registry): it stands in for the
 * registry's mode for that subject alone, in reads, writes and removal.
 */
public class SubjectModeTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Rule
    public final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();

    private SchemaRegistryServer server;
    private RegistryHttp http;

    @Before
    public void startRegistry() throws Exception {
        server = Registries.start(zookeeper);
        http = new RegistryHttp(server.urls().get(0));
    }

    @After
    public void stopRegistry() {
        server.close();
    }

    @Test
    public void aReadOnlySubjectRefusesEveryChangeToItAndNoneToOthers() {
        assertEquals(200, http.postSchema("/subjects/frozen-value/versions", pageView()).status());
        assertError(http.get("/mode/frozen-value"), 404, 40409);
        assertEquals("READWRITE", mode(http.get("/mode/frozen-value?defaultToGlobal=true")));

        assertEquals("READONLY", mode(http.put("/mode/frozen-value", "{\"mode\":\"READONLY\"}")));
        assertEquals("READONLY", mode(http.get("/mode/frozen-value")));
        assertEquals("the registry's own mode is unchanged", "READWRITE", mode(http.get("/mode")));
        String next = pageView(field("referrer", "\"string\"", "\"\""));
        assertError(http.postSchema("/subjects/frozen-value/versions", next), 422, 42205);
        assertError(http.delete("/subjects/frozen-value"), 422, 42205);
        assertError(http.delete("/subjects/frozen-value/versions/1"), 422, 42205);
        assertError(http.put("/config/frozen-value", "{\"compatibility\":\"NONE\"}"), 422, 42205);
        assertEquals(200, http.get("/subjects/frozen-value/versions/1").status());
        assertEquals(200, http.postSchema("/subjects/other-value/versions", next).status());

        assertEquals("READONLY", mode(http.delete("/mode/frozen-value")));
        assertError(http.delete("/mode/frozen-value"), 404, 40409);
        assertEquals(200, http.postSchema("/subjects/frozen-value/versions", next).status());
        assertError(http.put("/mode/frozen-value", "{\"mode\":\"SIDEWAYS\"}"), 422, 42204);
    }

    @Test
    public void aSubjectInImportModeKeepsTheIdsItIsGivenWhileTheRegistryStaysReadWrite() {
        assertEquals("IMPORT", mode(http.put("/mode/mirrored-value", "{\"mode\":\"IMPORT\"}")));
        Answer imported = http.post("/subjects/mirrored-value/versions", withId(pageView(), 700_001));
        assertEquals(imported.toString(), 700_001, imported.body().path("id").asInt());
        assertError(http.post("/subjects/local-value/versions", withId(pageView(), 700_002)), 422, 42205);
        Answer local = http.postSchema("/subjects/local-value/versions", pageView(field("n", "\"int\"", "0")));
        assertEquals(local.toString(), 200, local.status());

        http.put("/mode", "{\"mode\":\"READONLY\"}");
        Answer stillImporting = http.post("/subjects/mirrored-value/versions",
            withId(pageView(field("n", "\"int\"", "0")), 700_003));
        assertEquals("the subject's own mode stands in for the registry's", 700_003, stillImporting.body().path("id").asInt());
        assertError(http.postSchema("/subjects/local-value/versions", pageView(field("m", "\"int\"", "0"))), 422, 42205);
    }

    private static String withId(String schema, int id) {
        return JSON.createObjectNode().put("schema", schema).put("id", id).toString();
    }

    private static String mode(Answer answer) {
        assertEquals(answer.toString(), 200, answer.status());
        return answer.body().path("mode").asText();
    }

    private static void assertError(Answer answer, int status, int errorCode) {
        assertEquals(answer.toString(), status, answer.status());
        assertEquals(answer.toString(), errorCode, answer.errorCode());
    }
}
