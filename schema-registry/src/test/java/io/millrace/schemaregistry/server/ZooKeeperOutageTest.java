package io.millrace.schemaregistry.server;

import static io.millrace.schemaregistry.server.TestSchemas.field;
import static io.millrace.schemaregistry.server.TestSchemas.pageView;
import static org.junit.Assert.assertEquals;

import io.millrace.schemaregistry.server.RegistryHttp.Answer;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.util.Map;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;

/** While ZooKeeper is away requests fail with 500 / 50001; once it is back the registry serves again by itself. */
public class ZooKeeperOutageTest {

    @Rule
    public final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();

    private SchemaRegistryServer server;

    @After
    public void stopRegistry() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    public void zooKeeperAwayMeans50001AndItsReturnMeansService() throws Exception {
        server = Registries.start(zookeeper, Map.of(SchemaRegistryConfig.ZOOKEEPER_CONNECTION_TIMEOUT_MS_CONFIG, 500));
        RegistryHttp http = new RegistryHttp(server.urls().get(0));
        int id = http.postSchema("/subjects/views-value/versions", pageView()).body().get("id").asInt();

        zookeeper.stop();
        assertStoreError(http.postSchema("/subjects/views-value/versions", pageView(field("ref", "\"string\"", "\"\""))));
        assertStoreError(http.get("/subjects"));
        assertStoreError(http.get("/subjects/views-value/versions/latest"));
        assertEquals("ids already read need no ZooKeeper", 200, http.get("/schemas/ids/" + id).status());
        assertEquals(3, server.metrics().getStoreErrors());

        zookeeper.restart();
        Conditions.waitUntil(() -> http.get("/subjects").status() == 200, 20_000, "the registry serves again");
        Answer registered = http.postSchema("/subjects/views-value/versions", pageView(field("ref", "\"string\"", "\"\"")));
        assertEquals(registered.toString(), 200, registered.status());
        assertEquals(id + 1, registered.body().get("id").asInt());
    }

    @Test
    public void startupFailsWhenZooKeeperIsAway() throws Exception {
        zookeeper.stop();
        try {
            server = Registries.start(zookeeper, Map.of(SchemaRegistryConfig.ZOOKEEPER_CONNECTION_TIMEOUT_MS_CONFIG, 300));
            throw new AssertionError("started without ZooKeeper");
        } catch (IllegalStateException e) {
            assertEquals(true, e.getMessage().contains("Could not connect to ZooKeeper"));
        }
    }

    private static void assertStoreError(Answer answer) {
        assertEquals(answer.toString(), 500, answer.status());
        assertEquals(answer.toString(), 50001, answer.errorCode());
    }
}
