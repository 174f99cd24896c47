package io.millrace.schemaregistry.client;

import static io.millrace.schemaregistry.server.TestSchemas.field;
import static io.millrace.schemaregistry.server.TestSchemas.pageView;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.schemaregistry.server.Registries;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;

/** The client against a real registry: its answers, its errors, and the requests its caches save (counted at the server). */
public class SchemaRegistryClientTest {

    @ClassRule
    public static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();

    private static SchemaRegistryServer server;

    @BeforeClass
    public static void startRegistry() throws Exception {
        server = Registries.start(ZOOKEEPER);
    }

    @AfterClass
    public static void stopRegistry() {
        server.close();
    }

    private static SchemaRegistryClient newClient() {
        return new SchemaRegistryClient(Map.of(SchemaRegistryClientConfig.URL_CONFIG, server.urls().get(0)));
    }

    @Test
    public void afterTheFirstLookupAnIdCostsNoRequest() {
        int id = newClient().register("cache-id-value", parse(pageView(field("cached", "\"int\"", "0"))));
        SchemaRegistryClient client = newClient();
        long before = server.metrics().getRequests();
        Schema schema = client.getById(id);
        assertEquals(before + 1, server.metrics().getRequests());
        for (int i = 0; i < 100; i++) {
            assertEquals(schema, client.getById(id));
        }
        assertEquals(before + 1, server.metrics().getRequests());
        assertTrue(schema.getField("cached") != null);
    }

    @Test
    public void aSchemaRegisteredOrLookedUpOnceCostsNoFurtherRequest() {
        SchemaRegistryClient client = newClient();
        Schema schema = parse(pageView(field("twice", "\"int\"", "0")));
        long before = server.metrics().getRequests();
        int id = client.register("cache-subject-value", schema);
        assertEquals(id, client.register("cache-subject-value", schema));
        assertEquals(id, client.getId("cache-subject-value", schema));
        assertEquals(schema, client.getById(id));
        assertEquals(before + 1, server.metrics().getRequests());

        SchemaRegistryClient other = newClient();
        assertEquals(id, other.getId("cache-subject-value", schema));
        assertEquals(id, other.getId("cache-subject-value", schema));
        assertEquals(before + 2, server.metrics().getRequests());
    }

    @Test
    public void subjectsVersionsAndLevelsAreRead() {
        SchemaRegistryClient client = newClient();
        int v1 = client.register("reads-value", parse(pageView()));
        int v2 = client.register("reads-value", parse(pageView(field("ref", "\"string\"", "\"\""))));
        assertTrue(client.subjects().contains("reads-value"));
        assertEquals(List.of(1, 2), client.versions("reads-value"));
        RegisteredSchema latest = client.getLatest("reads-value");
        assertEquals(new RegisteredSchema("reads-value", 2, v2, client.getById(v2)), latest);
        assertEquals(v1, client.getVersion("reads-value", 1).id());
        assertTrue(client.isCompatible("reads-value", parse(pageView(field("ref", "\"string\"", "\"\""), field("n", "\"int\"", "1")))));
        assertFalse(client.isCompatible("reads-value", parse(pageView(field("n", "\"int\"")))));
        assertEquals("BACKWARD", client.getCompatibility("reads-value"));
        client.setCompatibility("reads-value", "FULL");
        assertEquals("FULL", client.getCompatibility("reads-value"));
        assertEquals(List.of(1, 2), client.deleteSubject("reads-value", false));
        assertEquals(List.of(1, 2), client.deleteSubject("reads-value", true));
    }

    @Test
    public void registryErrorsComeWithTheirStatusAndCode() {
        SchemaRegistryClient client = newClient();
        SchemaRegistryClientException unknownId = assertThrows(SchemaRegistryClientException.class, () -> client.getById(987_654));
        assertEquals(404, unknownId.status());
        assertEquals(40403, unknownId.errorCode());
        client.register("errors-value", parse(pageView()));
        SchemaRegistryClientException incompatible = assertThrows(SchemaRegistryClientException.class,
            () -> client.register("errors-value", parse(pageView(field("n", "\"int\"")))));
        assertEquals(409, incompatible.status());
        assertTrue(incompatible.getMessage(), incompatible.getMessage().contains("READER_FIELD_MISSING_DEFAULT_VALUE"));
        assertEquals(40401, assertThrows(SchemaRegistryClientException.class, () -> client.versions("no-such-subject")).errorCode());
    }

    @Test
    public void aConnectionErrorIsRetriedOnTheNextUrl() throws Exception {
        String dead = "http://127.0.0.1:" + closedPort();
        SchemaRegistryClient client = new SchemaRegistryClient(Map.of(
            SchemaRegistryClientConfig.URL_CONFIG, dead + "," + server.urls().get(0),
            SchemaRegistryClientConfig.RETRY_BACKOFF_MS_CONFIG, 1));
        assertTrue(client.register("retry-value", parse(pageView())) > 0);
    }

    @Test
    public void noAnswerAtAllFailsAfterTheRetries() throws Exception {
        SchemaRegistryClient client = new SchemaRegistryClient(Map.of(
            SchemaRegistryClientConfig.URL_CONFIG, "http://127.0.0.1:" + closedPort(),
            SchemaRegistryClientConfig.MAX_RETRIES_CONFIG, 2,
            SchemaRegistryClientConfig.RETRY_BACKOFF_MS_CONFIG, 1));
        SchemaRegistryClientException failure = assertThrows(SchemaRegistryClientException.class, () -> client.getById(1));
        assertEquals(0, failure.status());
        assertTrue(failure.getCause() instanceof java.io.IOException);
    }

    private static Schema parse(String schema) {
        return new Schema.Parser().parse(schema);
    }

    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
